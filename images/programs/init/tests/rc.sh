echo rc starting
echo bg1 > f1 &
sh -c 'echo bg2 > f2' &
wait
cat f1 f2
echo x | wc -c
exit 3
