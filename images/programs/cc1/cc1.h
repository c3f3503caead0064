/*
 * cc1: a compiler for a subset of C ("MC": int, char, pointers, one-dimensional arrays,
 * functions; the usual statements and the full C expression grammar) to assembly text for a
 * MIPS-like target. Phases: lexer (lex.c), recursive-descent parser building a typed syntax tree
 * with scopes, semantic checks and constant folding (parse.c, expr.c), code generation with
 * Sethi-Ullman ordered expression registers and use-count register allocation of scalar locals
 * (gen.c), and a peephole pass and the text emitter (emit.c).
 *
 * Limits: no structs, unions, casts, multi-dimensional arrays, floating point or preprocessor;
 * at most 32 arguments per call, and the arguments of one call are held in the ten expression
 * temporaries at once (a call needing more is reported as an internal limit). The output is
 * GNU as syntax for MIPS I with its usual pseudo-instructions (li, la, move, mul, div, rem, seq,
 * sne, sle, sgt, sge, negu, beqz, bnez) and the o32 register conventions, so oracle/check.sh can
 * assemble, link and run it under qemu-mipsel.
 */
#ifndef CC1_H
#define CC1_H

#include <stddef.h>

/* ---- lexer ---- */
enum tok {
	TK_EOF, TK_IDENT, TK_NUM, TK_CHARLIT, TK_STR,
	/* keywords */
	TK_INT, TK_CHAR, TK_VOID, TK_IF, TK_ELSE, TK_WHILE, TK_DO, TK_FOR, TK_RETURN, TK_BREAK,
	TK_CONTINUE, TK_SIZEOF,
	/* punctuation; multi-character operators */
	TK_LPAREN, TK_RPAREN, TK_LBRACE, TK_RBRACE, TK_LBRACKET, TK_RBRACKET, TK_SEMI, TK_COMMA,
	TK_QUESTION, TK_COLON,
	TK_ASSIGN, TK_ADD_ASSIGN, TK_SUB_ASSIGN, TK_MUL_ASSIGN, TK_DIV_ASSIGN, TK_MOD_ASSIGN,
	TK_AND_ASSIGN, TK_OR_ASSIGN, TK_XOR_ASSIGN, TK_SHL_ASSIGN, TK_SHR_ASSIGN,
	TK_OROR, TK_ANDAND, TK_OR, TK_XOR, TK_AND, TK_EQ, TK_NE, TK_LT, TK_GT, TK_LE, TK_GE,
	TK_SHL, TK_SHR, TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT, TK_NOT, TK_TILDE,
	TK_INC, TK_DEC,
};

struct token {
	enum tok kind;
	int line;
	long value;                     /* TK_NUM, TK_CHARLIT */
	const char *name;               /* TK_IDENT: interned; TK_STR: contents */
	int len;                        /* TK_STR length */
};

struct lexer {
	const char *src, *p, *file;
	int line;
	struct token tok;               /* current token */
	struct token ahead;             /* one token of lookahead, valid if has_ahead */
	int has_ahead;
};

void lex_init(struct lexer *lx, const char *file, const char *src);
void lex_next(struct lexer *lx);
const struct token *lex_peek(struct lexer *lx);
const char *intern_name(const char *s, int len);
const char *tok_name(enum tok k);

/* ---- arenas: everything of one compilation is freed at once ---- */
void *arena_alloc(size_t n);
void arena_reset(void);

/* ---- types ---- */
enum tykind { TY_VOID, TY_CHAR, TY_INT, TY_PTR, TY_ARRAY, TY_FUNC };
struct type {
	enum tykind kind;
	struct type *base;              /* PTR, ARRAY: element; FUNC: return type */
	int len;                        /* ARRAY */
	int nparams;                    /* FUNC; -1 = unknown */
	struct type **params;
};
extern struct type ty_void, ty_char, ty_int;
struct type *ptr_to(struct type *base);
struct type *array_of(struct type *base, int len);
int type_size(const struct type *t);
int is_integer(const struct type *t);
int is_pointer(const struct type *t);      /* PTR or ARRAY */

/* ---- symbols ---- */
enum symkind { SYM_GLOBAL, SYM_LOCAL, SYM_PARAM, SYM_FUNC };
struct sym {
	const char *name;
	struct type *type;
	enum symkind kind;
	int line;
	int offset;                     /* frame offset of a local; 4 * position of a param */
	int reg;                        /* allocated register number, or -1 */
	long weight;                    /* uses, weighted 10x per loop level */
	int addr_taken;
	int defined;                    /* functions: has a body; globals: emitted */
	int index;                      /* locals: order of declaration in the function */
	struct node *init;              /* globals: initialiser (constant or string) */
	struct sym *next;               /* scope chain */
	struct sym *list_next;          /* declaration order: globals, or a function's params/locals */
};

/* ---- syntax tree ---- */
enum nodeop {
	/* expressions */
	N_NUM, N_STR, N_VAR, N_ASSIGN, N_BINARY, N_LOGAND, N_LOGOR, N_COND, N_COMMA,
	N_NEG, N_NOT, N_BITNOT, N_DEREF, N_ADDR, N_PREINC, N_PREDEC, N_POSTINC, N_POSTDEC, N_CALL,
	N_OPASSIGN,
	/* statements */
	S_EXPR, S_IF, S_WHILE, S_DO, S_FOR, S_RETURN, S_BREAK, S_CONTINUE, S_BLOCK, S_EMPTY,
};

/* binary operators (N_BINARY, N_OPASSIGN) */
enum binop { B_ADD, B_SUB, B_MUL, B_DIV, B_MOD, B_AND, B_OR, B_XOR, B_SHL, B_SHR,
	     B_EQ, B_NE, B_LT, B_GT, B_LE, B_GE };

struct node {
	enum nodeop op;
	enum binop bop;
	struct type *type;
	struct node *a, *b, *c, *d;     /* operands / condition, bodies, ... */
	struct node *next;              /* call arguments, block statements */
	long value;                     /* N_NUM; N_STR: string label number */
	struct sym *sym;                /* N_VAR; N_CALL: the function */
	const char *str;                /* N_STR */
	int len;
	int line;
	int regs;                       /* Sethi-Ullman register need */
};

struct function {
	struct sym *sym;
	struct sym *params, *locals;    /* in declaration order, linked through list_next */
	int nlocals;
	struct node *body;
	struct function *next;
};

struct program {
	struct function *funcs;
	struct sym *globals;            /* in declaration order, linked through list_next */
	struct node *strings;           /* string literals, linked through next */
	int nstrings;
	int errors;
};

/* parse.c: declarations and statements; expr.c: expressions, checks and folding */
struct parser {
	struct lexer lx;
	struct program *prog;
	struct sym *scope;              /* innermost first */
	struct sym *scope_marks[64];
	int depth;                      /* block nesting */
	struct function *fn;            /* current function */
	int loop_depth;
	int errors;
};
void parse_program(struct parser *ps, struct program *prog);
struct node *parse_expr(struct parser *ps);
struct node *parse_assign(struct parser *ps);
void error_at(struct parser *ps, int line, const char *fmt, const char *arg);
int expect(struct parser *ps, enum tok k);
struct sym *lookup(struct parser *ps, const char *name);
struct node *new_node(enum nodeop op, int line);
long const_value(struct parser *ps, struct node *n, int *ok);

/* ---- target code (gen.c, emit.c) ---- */
enum opc {
	O_LABEL, O_LI, O_LA, O_MOVE, O_ADDU, O_SUBU, O_MUL, O_DIV, O_REM, O_AND, O_OR, O_XOR, O_NOR,
	O_SLLV, O_SRAV, O_SLT, O_SLTU, O_SEQ, O_SNE, O_SLE, O_SGT, O_SGE, O_ADDIU, O_ANDI, O_ORI,
	O_XORI, O_SLL, O_SRA, O_SLTI, O_NEGU, O_LW, O_SW, O_LB, O_SB, O_BEQZ, O_BNEZ, O_BEQ, O_BNE,
	O_J, O_JAL, O_JR, O_COMMENT,
};

/* registers, numbered like MIPS */
#define R_ZERO 0
#define R_V0 2
#define R_A0 4
#define R_T0 8          /* t0..t7 = 8..15, t8, t9 = 24, 25 */
#define R_S0 16         /* s0..s7 = 16..23 */
#define R_SP 29
#define R_FP 30
#define R_RA 31

struct insn {
	enum opc op;
	int rd, rs, rt;
	long imm;
	int label;                      /* branch target / O_LABEL number, -1 if none */
	const char *sym;                /* la/jal target symbol */
	int dead;
	int frame_rel;                  /* imm is relative to the caller's frame: add the frame size */
};

struct codebuf {
	struct insn *v;
	int n, cap;
};
void code_add(struct codebuf *cb, struct insn in);

struct out {                            /* growing text buffer */
	char *buf;
	size_t len, cap;
};
void out_str(struct out *o, const char *s);
void out_num(struct out *o, long v);
void out_char(struct out *o, char c);

struct gen_stats {
	long functions, instructions, spills, folded, peephole_removed, regs_allocated;
};

/* Generates the program's assembly text into o. */
void gen_program(struct program *prog, struct out *o, struct gen_stats *st);
/* Peephole pass over one function's code; returns the number of instructions removed. */
int peephole(struct codebuf *cb);
/* Appends one function's instructions as text. */
void emit_code(struct out *o, const struct codebuf *cb, const char *fname);

extern long folded_count;

#endif
