/*
 * sh: a small Bourne-like shell (the project's /bin/sh).
 *
 * Language (a subset of the POSIX shell, with the POSIX meanings):
 *   - words with '...' (everything literal), "..." ($ expands, \ escapes $ ` " \ and newline) and
 *     \c quoting; \<newline> joins lines; # starts a comment at the beginning of a word;
 *   - parameters $NAME ${NAME} ${NAME-word} ${NAME:-word} ${#NAME}, positional $0..$9 $# $* $@
 *     ("$@" gives one field per argument), $? (last status), $$ (the shell's pid), $! (pid of the
 *     last background job); unquoted expansions are split into fields at blanks, tabs and
 *     newlines; there is no pathname (glob) expansion and no command substitution;
 *   - simple commands with leading NAME=value assignments (for that command only, or for the
 *     shell when there is no command or it is one of the special builtins : exit export shift
 *     unset exec);
 *   - redirections [n]<file [n]>file [n]>>file [n]>&m [n]<&m [n]>&- anywhere in a command;
 *   - pipelines a | b | c of any length, with an optional leading "!" negating the status;
 *   - and-or lists with && and ||, lists separated by ; & or newline; a line ending in | && ||
 *     continues on the next line.
 * The status of a pipeline is its last command's: the exit code, 128+n if killed by signal n,
 * 127 if the command was not found ("sh: foo: not found"), 126 if it could not be executed.
 *
 * Builtins (run in the shell process unless part of a pipeline): cd, exit, wait [pid ...],
 * export [NAME[=value] ...], unset, shift, exec [cmd ...], :, true, false. echo is /bin/echo.
 * External commands are found by execvp through the PATH of the exported variables.
 *
 * Background jobs: an and-or list ended by & runs in a forked child shell with standard input
 * from /dev/null (when it can be opened), unless it redirects it. The shell reaps finished jobs
 * before every command and while waiting for foreground ones, keeping their status for wait.
 * There is no job control (no process groups, no fg/bg).
 *
 * Invocation: sh -c string [name [arg ...]] | sh script [arg ...] | sh [-s] (commands from
 * standard input, read one byte at a time so that commands share the rest of the input).
 * A syntax error ends a non-interactive shell with status 2; the shell exits at end of input
 * with the status of the last command.
 */
#ifndef SH_H
#define SH_H

#include <stddef.h>

/* Tokens of the lexer (lex.c). */
enum {
	T_EOF, T_NL, T_WORD, T_IONUM, T_SEMI, T_AMP, T_AND, T_OR, T_PIPE, T_BANG,
	T_LESS, T_GREAT, T_DGREAT, T_LESSAND, T_GREATAND, T_LPAREN, T_RPAREN,
};

/* Redirection kinds. */
enum { R_IN, R_OUT, R_APPEND, R_DUPIN, R_DUPOUT };

struct redir {
	int fd;			/* the descriptor redirected */
	int kind;		/* R_* */
	char *word;		/* raw (unexpanded) target: a file name, or a descriptor number or "-" */
	struct redir *next;
};

struct command {
	char **words;		/* raw words, the first nassign of them NAME=value */
	int nwords, nassign;
	struct redir *redirs;
};

struct pipeline {
	struct command **cmds;
	int ncmds;
	int negate;
};

/* An and-or list: pipelines joined by && (AO_AND) or || (AO_OR); op is the operator after p. */
enum { AO_END, AO_AND, AO_OR };
struct andor {
	struct pipeline *p;
	int op;
	struct andor *next;
};

/* A list: and-or lists, each in the foreground or in the background (&). */
struct list {
	struct andor *ao;
	int background;
	struct list *next;
};

/* Arena for one command line: everything parsed or expanded for it, freed after it runs. */
void *stalloc(size_t n);
char *ststrdup(const char *s);
void streset(void);

/* A growable string in the arena. */
struct sbuf {
	char *s;
	size_t len, cap;
};
void sb_init(struct sbuf *b);
void sb_putc(struct sbuf *b, int c);
void sb_puts(struct sbuf *b, const char *s);
char *sb_finish(struct sbuf *b);	/* NUL-terminated copy of the contents */

/* A growable vector of strings in the arena. */
struct strvec {
	char **v;
	int n, cap;
};
void sv_init(struct strvec *v);
void sv_push(struct strvec *v, char *s);

/* Input (input.c): a string (sh -c, scripts read whole) or standard input byte by byte. */
void input_string(const char *s, size_t len);
void input_fd0(void);
int in_getc(void);
void in_ungetc(int c);

/* Lexer (lex.c). */
struct token {
	int type;
	char *word;		/* T_WORD: raw text; T_IONUM: the digits */
};
void lex_next(struct token *t);
const char *tokname(const struct token *t);

/* Parser (parse.c): one complete command line. Returns 1 with *out set (NULL for an empty line),
 * 0 at end of input, -1 after a syntax error (already reported). */
int parse_line(struct list **out);

/* Variables (var.c). */
void var_import(char **envp);
const char *var_get(const char *name);
void var_set(const char *name, const char *value, int export);
void var_unset(const char *name);
void var_export(const char *name);
void var_print_exports(void);
char **var_environ(char **assigns, int nassign);
int is_name(const char *s, size_t n);
int is_assignment(const char *raw);

/* Positional parameters and special values (main.c). */
extern char *arg0;
extern char **posargs;
extern int nposargs;
extern int laststatus;
extern long shellpid;
extern long lastbgpid;

/* Expansion (expand.c). */
void expand_fields(const char *raw, struct strvec *out);
char *expand_string(const char *raw);

/* Execution (exec.c, jobs.c). */
#define EV_EXIT 1	/* the shell process exits after this: external commands exec in place */
int run_list(struct list *l);
void run_subshell_exit(int status);
int status_of(int wstatus);
void jobs_reap_nohang(void);
void jobs_add(long pid);
void jobs_clear(void);
int jobs_wait_for(const long *pids, int n);
int builtin_wait(char **argv);
typedef int (*builtin_fn)(char **argv);
builtin_fn builtin_lookup(const char *name, int *special);

/* Diagnostics on standard error, unbuffered: "sh: " then the formatted message and a newline. */
void sh_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void xwrite(int fd, const char *s, size_t n);

#endif
