# background jobs and wait
echo one > j1.txt &
echo two > j2.txt &
wait
cat j1.txt j2.txt
sh -c 'exit 3' &
p=$!
wait $p; echo "wait status $?"
sh -c 'exit 5' & q=$!
sh -c 'exit 6' & r=$!
wait $r; echo "r $?"
wait $q; echo "q $?"
echo a > m1 & echo b > m2 & echo c > m3 & echo d > m4 & echo e > m5 &
echo f > m6 & echo g > m7 & echo h > m8 & echo i > m9 & echo j > m10 &
wait
cat m1 m2 m3 m4 m5 m6 m7 m8 m9 m10 | wc -l
echo x | cat | wc -c > bgpipe.txt &
false || echo recovered > bgor.txt &
wait
cat bgpipe.txt bgor.txt
cat > bgstdin.txt &
wait
wc -c < bgstdin.txt
sh -c 'exit 8' & old=$!
sh -c 'exit 0'
wait $old; echo "old $?"
true & wait; echo "wait all $?"
