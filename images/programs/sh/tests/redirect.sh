# redirections and pipelines
echo first > out.txt
echo second >> out.txt
cat out.txt
cat < out.txt | wc -l
wc -c < out.txt > count.txt; cat count.txt
cat nonexistent 2> err.txt; echo "status $?"
wc -l < err.txt
cat nonexistent 2>&1 | wc -l
cat nonexistent > both.txt 2>&1; wc -l < both.txt
echo to-stderr 1>&2 2>/dev/null
echo x 3> fd3.txt >&3; cat fd3.txt
echo closed >&-; echo "status $?"
cat < nonexistent; echo "status $?"
> empty.txt; wc -c empty.txt
echo a | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | wc -c
echo pipeline | nonexistentcmd 2>/dev/null | wc -l; echo "status $?"
nonexistentcmd 2>/dev/null | echo last; echo "status $?"
echo abc | wc -c | cat > piped.txt; cat piped.txt
echo multi |
  cat |
  wc -w
exec 4> fd4.txt
echo via-fd4 >&4
exec 4>&-
cat fd4.txt
echo one two > a.txt; echo three >> a.txt; wc a.txt out.txt
cat a.txt - out.txt < count.txt | wc -l
