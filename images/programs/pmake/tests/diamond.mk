# a diamond of jobs, one failing branch and what depends on it
all: report

base:
	echo base built
	sh -c 'echo "second command of base"'
left: base
	sh -c "echo left; exit 0"
right: base
	sh -c "echo right fails >&2; exit 3"
	echo never printed
join: left right
	echo join never runs
report: join lone
	echo report never runs
lone:
	echo lone runs, it needs nothing
unused:
	echo not a goal
