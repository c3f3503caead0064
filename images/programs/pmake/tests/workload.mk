# the fork-heavy parallel build: workloads as jobs, a pipeline through sh, a chain of dependencies
all: text count search squeeze control talk signals tally

text:
	sh -c "textgen 400000 42 | compress -c | compress -d | wc -c"
count: text
	sh -c "textgen 400000 42 | wc"
search: text
	sh -c "textgen 400000 42 | egrep -c 'kernel|trace'"
	sh -c "textgen 400000 42 | egrep -c -v 'the'"
squeeze:
	compress 300000
control:
	jmptest
talk:
	cs 1000
signals:
	sigtest kill procmask samask actions sigchld sigpipe sigsegv restart
tally: count search squeeze
	sh -c "echo all three done | wc -w"
