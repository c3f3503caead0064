# exit statuses, and-or lists, sub-shells' arguments and environment
true; echo "true $?"
false; echo "false $?"
! true; echo "not true $?"
! false; echo "not false $?"
true && echo and-yes
false && echo and-no
false || echo or-yes
true || echo or-no
false && echo x || echo "and-or $?"
true && false || echo fallback
true ||
  echo never
sh -c 'exit 7'; echo "exit 7 -> $?"
sh -c 'exit 300'; echo "exit 300 -> $?"
nosuchcmd 2>/dev/null; echo "not found -> $?"
sh -c nosuchcmd 2>/dev/null; echo "nested not found -> $?"
echo pipe | sh -c 'exit 3'; echo "pipeline -> $?"
sh -c 'exit 4' | echo ignored-status; echo "pipeline last -> $?"
cd /nonexistent-dir 2>/dev/null || echo "cd failed"
sh -c 'echo $0 $# $1 "$2"' zero one 'two  words'
sh -c 'echo "$@"; echo $*; echo $#' n a 'b  c' d
sh -c 'echo a |' 2>/dev/null; echo "syntax -> $?"
sh -c 'echo "unterminated' 2>/dev/null; echo "syntax -> $?"
sh -c 'echo before; exit 9; echo after'; echo "exit -> $?"
sh -c 'false; exit'; echo "bare exit -> $?"
X=outer; X=inner sh -c 'echo $X'; echo $X
X=temp true; echo $X; W=kept :; echo $W
export Y=exported; sh -c 'echo $Y'
Z=notexported; sh -c 'echo "[$Z]"'
export Z; sh -c 'echo "[$Z]"'
unset Y; sh -c 'echo "[$Y]"'
sh -c 'shift; echo $1; shift 2; echo $# "$@"' s a b c d
exit 6
echo not reached
