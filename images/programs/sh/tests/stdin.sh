echo before
wc -l
first line read by wc, not by the shell
second line
echo not run by the shell
