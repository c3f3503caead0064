# words, quoting and parameter expansion
echo plain   words	with   tabs
echo 'single  quoted $HOME \n' "double  quoted" mixed'x'"y"z
X='a  b   c'
echo $X
echo "$X"
echo "[$X]" '[$X]' \$X \\ \'
E=
echo "[$E]" [$E] ["$E"] "" '' x
V=value
echo ${V} ${V}x "${V}y" $V.z
echo ${UNSET-default} ${UNSET:-colon} "[${E-dash}]" "${E:-empty-colon}" ${#X} ${#UNSET}
echo ${UNSET-two words} "${UNSET-two  words}"
echo "a\"b" 'c"d' "e'f" "tab\there" "\$notvar" "back\\slash" "\`"
echo one \
  two \
  three
echo a#b # this is a comment
# a whole-line comment
echo "multi
line" 'single
quoted'
N=5; M=$N$N; echo $M
A=1 B=2
echo $A$B
S='x y'
T=$S
echo "[$T]"
echo $ "$" end$
