/*
 * Code generation for the MIPS-like target.
 *
 * Frame (the stack pointer is the only base; the frame is made by the prologue):
 *   0($sp) ..            outgoing arguments (4 words at least, like MIPS o32)
 *   locals ..            arrays, locals whose address is taken, scalars left without a register
 *   spills ..            expression temporaries saved across calls or when registers run out
 *   saved $s registers, then $ra, at the top
 * Arguments: the first four in $a0-$a3, the rest at 16($sp) and up; result in $v0.
 *
 * Registers: scalar locals and parameters whose address is never taken get $s0-$s7 in order of
 * their use counts (each use inside k loops counts 10^k). Expression temporaries come from
 * $t0-$t9; binary operators evaluate the operand needing more registers first (Sethi-Ullman), and
 * when the pool runs dry the held value is spilled to the frame and reloaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc1.h"

#define NTEMPS 10
static const int temp_regs[NTEMPS] = { 8, 9, 10, 11, 12, 13, 14, 15, 24, 25 };

struct gen {
	struct codebuf code;
	struct function *fn;
	int temp_used[NTEMPS];
	int nlabels;                    /* labels are numbered per program */
	int outgoing;                   /* bytes of the outgoing argument area */
	int locals_size;
	int spill_base, spill_cur, spill_max;
	int sregs_used;                 /* number of $s registers allocated */
	int break_label[64], continue_label[64], loop_depth;
	int return_label;
	struct gen_stats *st;
};

void code_add(struct codebuf *cb, struct insn in)
{
	if (cb->n == cb->cap) {
		cb->cap = cb->cap ? cb->cap * 2 : 256;
		cb->v = realloc(cb->v, sizeof *cb->v * (size_t)cb->cap);
		if (!cb->v) {
			fprintf(stderr, "cc1: out of memory\n");
			exit(1);
		}
	}
	cb->v[cb->n++] = in;
}

static void emit(struct gen *g, enum opc op, int rd, int rs, int rt, long imm)
{
	struct insn in;
	in.op = op;
	in.rd = rd;
	in.rs = rs;
	in.rt = rt;
	in.imm = imm;
	in.label = -1;
	in.sym = 0;
	in.dead = 0;
	in.frame_rel = 0;
	code_add(&g->code, in);
}

static void emit_label_op(struct gen *g, enum opc op, int rs, int rt, int label)
{
	emit(g, op, 0, rs, rt, 0);
	g->code.v[g->code.n - 1].label = label;
}

static void emit_sym_op(struct gen *g, enum opc op, int rd, const char *sym)
{
	emit(g, op, rd, 0, 0, 0);
	g->code.v[g->code.n - 1].sym = sym;
}

static int new_label(struct gen *g)
{
	return g->nlabels++;
}

static void place_label(struct gen *g, int label)
{
	emit_label_op(g, O_LABEL, 0, 0, label);
}

/* ---- temporaries ---- */

static int temps_free(struct gen *g)
{
	int i, n = 0;
	for (i = 0; i < NTEMPS; i++)
		n += !g->temp_used[i];
	return n;
}

static int alloc_temp(struct gen *g)
{
	int i;
	for (i = 0; i < NTEMPS; i++)
		if (!g->temp_used[i]) {
			g->temp_used[i] = 1;
			return temp_regs[i];
		}
	fprintf(stderr, "cc1: internal limit: an expression (a call with many arguments) needs more than %d temporaries\n", NTEMPS);
	exit(1);
}

static void free_temp(struct gen *g, int r)
{
	int i;
	for (i = 0; i < NTEMPS; i++)
		if (temp_regs[i] == r)
			g->temp_used[i] = 0;
}

static int spill_slot(struct gen *g)
{
	int off = g->spill_base + g->spill_cur;
	g->spill_cur += 4;
	if (g->spill_cur > g->spill_max)
		g->spill_max = g->spill_cur;
	g->st->spills++;
	return off;
}

static void release_slot(struct gen *g)
{
	g->spill_cur -= 4;
}

/* ---- register need (Sethi-Ullman numbers) ---- */

static int need(struct node *n)
{
	int a, b;
	if (!n)
		return 0;
	switch (n->op) {
	case N_NUM: case N_STR: case N_VAR: case N_ADDR:
		n->regs = 1;
		break;
	case N_CALL: {
		struct node *x;
		for (x = n->a; x; x = x->next)
			need(x);
		n->regs = 1;
		break;
	}
	case N_BINARY: case N_ASSIGN: case N_OPASSIGN: case N_LOGAND: case N_LOGOR: case N_COMMA:
		a = need(n->a);
		b = need(n->b);
		n->regs = a == b ? a + 1 : a > b ? a : b;
		break;
	case N_COND:
		a = need(n->a);
		b = need(n->b);
		if (need(n->c) > b)
			b = n->c->regs;
		n->regs = a > b ? a : b;
		break;
	default:                /* unary */
		n->regs = need(n->a);
		if (n->regs < 1)
			n->regs = 1;
		break;
	}
	return n->regs;
}

/* ---- expressions ---- */

static int gen_expr(struct gen *g, struct node *n);
static void gen_branch(struct gen *g, struct node *n, int if_true, int label);

static int sym_in_reg(const struct sym *s)
{
	return s->reg >= 0;
}

/* Address of an lvalue into a fresh temporary (never for register variables). */
static int gen_addr(struct gen *g, struct node *n)
{
	int r;
	if (n->op == N_DEREF)
		return gen_expr(g, n->a);
	r = alloc_temp(g);
	if (n->sym->kind == SYM_GLOBAL)
		emit_sym_op(g, O_LA, r, n->sym->name);
	else
		emit(g, O_ADDIU, r, R_SP, 0, n->sym->offset);
	/* a parameter's home is in the caller's frame, above ours, whose size is known only when
	 * the body has been generated (spills) */
	if (n->sym->kind == SYM_PARAM)
		g->code.v[g->code.n - 1].frame_rel = 1;
	return r;
}

static enum opc load_op(const struct type *t)
{
	return t->kind == TY_CHAR ? O_LB : O_LW;
}

static enum opc store_op(const struct type *t)
{
	return t->kind == TY_CHAR ? O_SB : O_SW;
}

static int power_of_two(long v)
{
	int k;
	for (k = 1; k < 31; k++)
		if (v == 1L << k)
			return k;
	return -1;
}

static enum opc reg_op(enum binop op)
{
	static const enum opc ops[] = { O_ADDU, O_SUBU, O_MUL, O_DIV, O_REM, O_AND, O_OR, O_XOR,
		O_SLLV, O_SRAV, O_SEQ, O_SNE, O_SLT, O_SGT, O_SLE, O_SGE };
	return ops[op];
}

/* Computes l op r into l's register; the right operand may be an immediate. */
static void gen_op(struct gen *g, enum binop op, int rl, struct node *right, int rr)
{
	if (right && right->op == N_NUM && right->value >= -32768 && right->value <= 32767) {
		long v = right->value;
		switch (op) {
		case B_ADD: emit(g, O_ADDIU, rl, rl, 0, v); return;
		case B_SUB: if (v != -32768) { emit(g, O_ADDIU, rl, rl, 0, -v); return; } break;
		case B_AND: if (v >= 0) { emit(g, O_ANDI, rl, rl, 0, v); return; } break;
		case B_OR: if (v >= 0) { emit(g, O_ORI, rl, rl, 0, v); return; } break;
		case B_XOR: if (v >= 0) { emit(g, O_XORI, rl, rl, 0, v); return; } break;
		case B_SHL: if (v >= 0 && v < 32) { emit(g, O_SLL, rl, rl, 0, v); return; } break;
		case B_SHR: if (v >= 0 && v < 32) { emit(g, O_SRA, rl, rl, 0, v); return; } break;
		case B_LT: emit(g, O_SLTI, rl, rl, 0, v); return;
		case B_MUL:
			if (power_of_two(v) > 0) {
				g->st->folded++;        /* strength reduction */
				emit(g, O_SLL, rl, rl, 0, power_of_two(v));
				return;
			}
			break;
		default:
			break;
		}
	}
	if (rr < 0) {
		rr = alloc_temp(g);
		emit(g, O_LI, rr, 0, 0, right->value);
		emit(g, reg_op(op), rl, rl, rr, 0);
		free_temp(g, rr);
		return;
	}
	emit(g, reg_op(op), rl, rl, rr, 0);
}

/*
 * Evaluates a and b (b may stay an immediate); returns a's register in *ra and b's (or -1) in
 * *rb. The operand needing more registers goes first; a value held while the other is computed
 * is spilled if the pool cannot cover the other's need.
 */
static void gen_pair(struct gen *g, struct node *a, struct node *b, int *ra, int *rb)
{
	int imm = b->op == N_NUM && b->value >= -32768 && b->value <= 32767;
	if (imm) {
		*ra = gen_expr(g, a);
		*rb = -1;
		return;
	}
	if (b->regs > a->regs) {
		*rb = gen_expr(g, b);
		if (temps_free(g) < a->regs + 1) {
			int slot = spill_slot(g);
			emit(g, O_SW, *rb, R_SP, 0, slot);
			free_temp(g, *rb);
			*ra = gen_expr(g, a);
			*rb = alloc_temp(g);
			emit(g, O_LW, *rb, R_SP, 0, slot);
			release_slot(g);
		} else {
			*ra = gen_expr(g, a);
		}
	} else {
		*ra = gen_expr(g, a);
		if (temps_free(g) < b->regs + 1) {
			int slot = spill_slot(g);
			emit(g, O_SW, *ra, R_SP, 0, slot);
			free_temp(g, *ra);
			*rb = gen_expr(g, b);
			*ra = alloc_temp(g);
			emit(g, O_LW, *ra, R_SP, 0, slot);
			release_slot(g);
		} else {
			*rb = gen_expr(g, b);
		}
	}
}

static int gen_call(struct gen *g, struct node *n)
{
	int args[32], nargs = 0, i, r, saved[NTEMPS], slots[NTEMPS], nsaved = 0;
	int held[NTEMPS];
	struct node *x;
	/* temporaries held by the enclosing expression before this call */
	for (i = 0; i < NTEMPS; i++)
		held[i] = g->temp_used[i];
	for (x = n->a; x && nargs < 32; x = x->next)
		args[nargs++] = gen_expr(g, x);
	for (i = 4; i < nargs; i++)
		emit(g, O_SW, args[i], R_SP, 0, 4 * i);
	for (i = 0; i < nargs && i < 4; i++)
		emit(g, O_MOVE, R_A0 + i, args[i], 0, 0);
	for (i = 0; i < nargs; i++)
		free_temp(g, args[i]);
	for (i = 0; i < NTEMPS; i++)
		if (held[i] && g->temp_used[i]) {
			saved[nsaved] = temp_regs[i];
			slots[nsaved] = spill_slot(g);
			emit(g, O_SW, saved[nsaved], R_SP, 0, slots[nsaved]);
			nsaved++;
		}
	emit_sym_op(g, O_JAL, 0, n->sym->name);
	for (i = nsaved - 1; i >= 0; i--) {
		emit(g, O_LW, saved[i], R_SP, 0, slots[i]);
		release_slot(g);
	}
	r = alloc_temp(g);
	emit(g, O_MOVE, r, R_V0, 0, 0);
	return r;
}

/* Stores value register v into lvalue n (address register addr unless n is a register or
 * direct variable). */
static void store_to(struct gen *g, struct node *n, int v, int addr)
{
	if (n->op == N_VAR && sym_in_reg(n->sym)) {
		emit(g, O_MOVE, n->sym->reg, v, 0, 0);
		if (n->type->kind == TY_CHAR) {         /* keep the register a valid char */
			emit(g, O_SLL, n->sym->reg, n->sym->reg, 0, 24);
			emit(g, O_SRA, n->sym->reg, n->sym->reg, 0, 24);
		}
		return;
	}
	emit(g, store_op(n->type), v, addr, 0, 0);
}

static int gen_expr(struct gen *g, struct node *n)
{
	int r, r2, addr, lab, lab2;
	switch (n->op) {
	case N_NUM:
		r = alloc_temp(g);
		emit(g, O_LI, r, 0, 0, n->value);
		return r;
	case N_STR: {
		static char name[24];
		const char *nm;
		r = alloc_temp(g);
		sprintf(name, "$LC%ld", n->value);
		nm = intern_name(name, (int)strlen(name));
		emit_sym_op(g, O_LA, r, nm);
		return r;
	}
	case N_VAR:
		if (sym_in_reg(n->sym)) {
			r = alloc_temp(g);
			emit(g, O_MOVE, r, n->sym->reg, 0, 0);
			return r;
		}
		if (n->type->kind == TY_ARRAY)          /* decays to its address */
			return gen_addr(g, n);
		r = gen_addr(g, n);
		emit(g, load_op(n->type), r, r, 0, 0);
		return r;
	case N_ADDR:
		return gen_addr(g, n->a);
	case N_DEREF:
		r = gen_expr(g, n->a);
		if (n->type->kind != TY_ARRAY)
			emit(g, load_op(n->type), r, r, 0, 0);
		return r;
	case N_ASSIGN:
		if (n->a->op == N_VAR && sym_in_reg(n->a->sym)) {
			r = gen_expr(g, n->b);
			store_to(g, n->a, r, -1);
			return r;
		}
		if (n->a->op == N_DEREF) {
			gen_pair(g, n->b, n->a->a, &r, &addr);
			if (addr < 0) {                 /* constant address: unusual but legal */
				addr = alloc_temp(g);
				emit(g, O_LI, addr, 0, 0, n->a->a->value);
			}
		} else {
			r = gen_expr(g, n->b);
			addr = gen_addr(g, n->a);
		}
		store_to(g, n->a, r, addr);
		free_temp(g, addr);
		return r;
	case N_OPASSIGN:
	case N_PREINC:
	case N_PREDEC:
	case N_POSTINC:
	case N_POSTDEC: {
		int post = n->op == N_POSTINC || n->op == N_POSTDEC, old = -1;
		enum binop op = n->op == N_OPASSIGN ? n->bop : (n->op == N_PREINC || n->op == N_POSTINC) ? B_ADD : B_SUB;
		struct node step;
		struct node *rhs = n->b;
		if (n->op != N_OPASSIGN) {
			memset(&step, 0, sizeof step);
			step.op = N_NUM;
			step.value = n->value;
			step.regs = 1;
			rhs = &step;
		}
		if (n->a->op == N_VAR && sym_in_reg(n->a->sym)) {
			int rv = n->a->sym->reg;
			r2 = rhs->op == N_NUM && rhs->value >= -32768 && rhs->value <= 32767 ? -1 : gen_expr(g, rhs);
			r = alloc_temp(g);
			if (post)
				emit(g, O_MOVE, r, rv, 0, 0);
			gen_op(g, op, rv, rhs, r2);
			if (n->a->type->kind == TY_CHAR) {
				emit(g, O_SLL, rv, rv, 0, 24);
				emit(g, O_SRA, rv, rv, 0, 24);
			}
			if (!post)
				emit(g, O_MOVE, r, rv, 0, 0);
			if (r2 >= 0)
				free_temp(g, r2);
			return r;
		}
		if (rhs->op == N_NUM && rhs->value >= -32768 && rhs->value <= 32767) {
			addr = gen_addr(g, n->a);
			r2 = -1;
		} else {
			gen_pair(g, n->a->op == N_DEREF ? n->a->a : n->a, rhs, &addr, &r2);
			if (n->a->op == N_VAR) {        /* gen_pair loaded the value; want the address */
				free_temp(g, addr);
				addr = gen_addr(g, n->a);
			}
		}
		r = alloc_temp(g);
		emit(g, load_op(n->a->type), r, addr, 0, 0);
		if (post) {
			old = alloc_temp(g);
			emit(g, O_MOVE, old, r, 0, 0);
		}
		gen_op(g, op, r, rhs, r2);
		emit(g, store_op(n->a->type), r, addr, 0, 0);
		if (r2 >= 0)
			free_temp(g, r2);
		free_temp(g, addr);
		if (post) {
			free_temp(g, r);
			return old;
		}
		return r;
	}
	case N_BINARY:
		gen_pair(g, n->a, n->b, &r, &r2);
		gen_op(g, n->bop, r, n->b, r2);
		if (r2 >= 0)
			free_temp(g, r2);
		return r;
	case N_LOGAND:
	case N_LOGOR:
		lab = new_label(g);
		lab2 = new_label(g);
		r = alloc_temp(g);
		gen_branch(g, n, 0, lab);
		emit(g, O_LI, r, 0, 0, 1);
		emit_label_op(g, O_J, 0, 0, lab2);
		place_label(g, lab);
		emit(g, O_LI, r, 0, 0, 0);
		place_label(g, lab2);
		return r;
	case N_COND:
		lab = new_label(g);
		lab2 = new_label(g);
		gen_branch(g, n->a, 0, lab);
		r = gen_expr(g, n->b);
		emit_label_op(g, O_J, 0, 0, lab2);
		place_label(g, lab);
		free_temp(g, r);
		r2 = gen_expr(g, n->c);
		if (r2 != r)
			emit(g, O_MOVE, r, r2, 0, 0);
		free_temp(g, r2);
		place_label(g, lab2);
		r2 = alloc_temp(g);
		if (r2 != r)
			emit(g, O_MOVE, r2, r, 0, 0);
		return r2;
	case N_COMMA:
		free_temp(g, gen_expr(g, n->a));
		return gen_expr(g, n->b);
	case N_NEG:
		r = gen_expr(g, n->a);
		emit(g, O_NEGU, r, r, 0, 0);
		return r;
	case N_NOT:
		r = gen_expr(g, n->a);
		emit(g, O_SEQ, r, r, R_ZERO, 0);
		return r;
	case N_BITNOT:
		r = gen_expr(g, n->a);
		emit(g, O_NOR, r, r, R_ZERO, 0);
		return r;
	case N_CALL:
		return gen_call(g, n);
	default:
		fprintf(stderr, "cc1: internal error: expression op %d\n", n->op);
		exit(1);
	}
}

/* Jumps to label when the truth of n equals if_true; falls through otherwise. */
static void gen_branch(struct gen *g, struct node *n, int if_true, int label)
{
	int r, r2;
	if (n->op == N_LOGAND || n->op == N_LOGOR) {
		int is_and = n->op == N_LOGAND;
		if (is_and != if_true) {
			/* (a && b) false: a false or b false; (a || b) true: a true or b true */
			gen_branch(g, n->a, if_true, label);
			gen_branch(g, n->b, if_true, label);
		} else {
			int skip = new_label(g);
			gen_branch(g, n->a, !if_true, skip);
			gen_branch(g, n->b, if_true, label);
			place_label(g, skip);
		}
		return;
	}
	if (n->op == N_NOT) {
		gen_branch(g, n->a, !if_true, label);
		return;
	}
	if (n->op == N_NUM) {
		if ((n->value != 0) == if_true)
			emit_label_op(g, O_J, 0, 0, label);
		return;
	}
	if (n->op == N_BINARY && (n->bop == B_EQ || n->bop == B_NE)) {
		int eq = (n->bop == B_EQ) == if_true;
		if (n->b->op == N_NUM && n->b->value == 0) {
			r = gen_expr(g, n->a);
			emit_label_op(g, eq ? O_BEQZ : O_BNEZ, r, 0, label);
			free_temp(g, r);
			return;
		}
		gen_pair(g, n->a, n->b, &r, &r2);
		if (r2 < 0) {
			r2 = alloc_temp(g);
			emit(g, O_LI, r2, 0, 0, n->b->value);
		}
		emit_label_op(g, eq ? O_BEQ : O_BNE, r, r2, label);
		free_temp(g, r);
		free_temp(g, r2);
		return;
	}
	r = gen_expr(g, n);
	emit_label_op(g, if_true ? O_BNEZ : O_BEQZ, r, 0, label);
	free_temp(g, r);
}

/* ---- statements ---- */

static void gen_stmt(struct gen *g, struct node *s)
{
	int l1, l2, l3, lt;
	struct node *x;
	switch (s->op) {
	case S_EXPR:
		need(s->a);
		free_temp(g, gen_expr(g, s->a));
		break;
	case S_BLOCK:
		for (x = s->a; x; x = x->next)
			gen_stmt(g, x);
		break;
	case S_EMPTY:
		break;
	case S_IF:
		need(s->a);
		l1 = new_label(g);
		gen_branch(g, s->a, 0, l1);
		gen_stmt(g, s->b);
		if (s->c) {
			l2 = new_label(g);
			emit_label_op(g, O_J, 0, 0, l2);
			place_label(g, l1);
			gen_stmt(g, s->c);
			place_label(g, l2);
		} else {
			place_label(g, l1);
		}
		break;
	case S_WHILE:
	case S_FOR:
	case S_DO: {
		struct node *cond = s->a, *body = s->b, *step = 0;
		if (s->op == S_FOR) {
			if (s->a) {
				need(s->a);
				free_temp(g, gen_expr(g, s->a));
			}
			cond = s->b;
			step = s->c;
			body = s->d;
		}
		l1 = new_label(g);      /* top of the body */
		l2 = new_label(g);      /* continue: the step, then the test */
		l3 = new_label(g);      /* break */
		lt = new_label(g);      /* the test */
		if (cond)
			need(cond);
		if (step)
			need(step);
		/* loops are rotated: the test sits at the bottom */
		if (s->op != S_DO)
			emit_label_op(g, O_J, 0, 0, lt);
		place_label(g, l1);
		if (g->loop_depth < 64) {
			g->break_label[g->loop_depth] = l3;
			g->continue_label[g->loop_depth] = l2;
		}
		g->loop_depth++;
		gen_stmt(g, body);
		g->loop_depth--;
		place_label(g, l2);
		if (step)
			free_temp(g, gen_expr(g, step));
		place_label(g, lt);
		if (cond)
			gen_branch(g, cond, 1, l1);
		else
			emit_label_op(g, O_J, 0, 0, l1);
		place_label(g, l3);
		break;
	}
	case S_BREAK:
	case S_CONTINUE:
		if (g->loop_depth > 0 && g->loop_depth <= 64)
			emit_label_op(g, O_J, 0, 0, s->op == S_BREAK ? g->break_label[g->loop_depth - 1] : g->continue_label[g->loop_depth - 1]);
		break;
	case S_RETURN:
		if (s->a) {
			need(s->a);
			l1 = gen_expr(g, s->a);
			emit(g, O_MOVE, R_V0, l1, 0, 0);
			free_temp(g, l1);
		}
		emit_label_op(g, O_J, 0, 0, g->return_label);
		break;
	default:
		fprintf(stderr, "cc1: internal error: statement op %d\n", s->op);
		exit(1);
	}
}

/* ---- functions ---- */

static int max_args(struct node *n)
{
	int m = 0, k;
	if (!n)
		return 0;
	if (n->op == N_CALL)
		m = (int)n->value;
	k = max_args(n->a); if (k > m) m = k;
	k = max_args(n->b); if (k > m) m = k;
	k = max_args(n->c); if (k > m) m = k;
	k = max_args(n->d); if (k > m) m = k;
	k = max_args(n->next); if (k > m) m = k;
	return m;
}

static int scalar(const struct type *t)
{
	return t->kind == TY_INT || t->kind == TY_CHAR || t->kind == TY_PTR;
}

/* Gives $s registers to the heaviest scalar variables; lays out the rest of the locals. */
static void allocate(struct gen *g)
{
	struct sym *cand[256], *s;
	int n = 0, i, j, off;
	for (s = g->fn->params; s; s = s->list_next)
		if (scalar(s->type) && !s->addr_taken && n < 256)
			cand[n++] = s;
	for (s = g->fn->locals; s; s = s->list_next)
		if (scalar(s->type) && !s->addr_taken && n < 256)
			cand[n++] = s;
	for (i = 1; i < n; i++) {               /* stable insertion sort by weight, heaviest first */
		struct sym *x = cand[i];
		for (j = i; j > 0 && cand[j - 1]->weight < x->weight; j--)
			cand[j] = cand[j - 1];
		cand[j] = x;
	}
	g->sregs_used = n < 8 ? n : 8;
	for (i = 0; i < g->sregs_used; i++)
		cand[i]->reg = R_S0 + i;
	g->st->regs_allocated += g->sregs_used;
	off = g->outgoing;
	for (s = g->fn->locals; s; s = s->list_next)
		if (s->reg < 0) {
			int size = type_size(s->type);
			s->offset = off;
			off += (size + 3) & ~3;
		}
	g->locals_size = off - g->outgoing;
	g->spill_base = off;
}

static void gen_function(struct gen *g, struct function *fn, struct out *o)
{
	struct codebuf body = { 0, 0, 0 }, full = { 0, 0, 0 };
	struct sym *p;
	int i, frame, save_base;
	g->fn = fn;
	g->outgoing = 4 * (max_args(fn->body) > 4 ? max_args(fn->body) : 4);
	g->spill_cur = g->spill_max = 0;
	g->loop_depth = 0;
	memset(g->temp_used, 0, sizeof g->temp_used);
	allocate(g);
	for (p = fn->params, i = 0; p; p = p->list_next, i++)
		p->offset = 4 * i;
	g->return_label = new_label(g);
	g->code = body;
	gen_stmt(g, fn->body);
	body = g->code;
	/* frame: outgoing, locals, spills, saved $s, $ra; 8-byte aligned */
	save_base = g->spill_base + g->spill_max;
	frame = (save_base + 4 * g->sregs_used + 4 + 7) & ~7;
	for (i = 0; i < body.n; i++)
		if (body.v[i].frame_rel)
			body.v[i].imm += frame;
	g->code = full;
	emit(g, O_ADDIU, R_SP, R_SP, 0, -frame);
	emit(g, O_SW, R_RA, R_SP, 0, frame - 4);
	for (i = 0; i < g->sregs_used; i++)
		emit(g, O_SW, R_S0 + i, R_SP, 0, save_base + 4 * i);
	/* parameters to their homes: registers or the caller's argument slots */
	for (p = fn->params, i = 0; p; p = p->list_next, i++) {
		if (p->reg >= 0) {
			if (i < 4)
				emit(g, O_MOVE, p->reg, R_A0 + i, 0, 0);
			else
				emit(g, O_LW, p->reg, R_SP, 0, frame + 4 * i);
		} else if (i < 4) {
			emit(g, p->type->kind == TY_CHAR ? O_SB : O_SW, R_A0 + i, R_SP, 0, frame + 4 * i);
		}
	}
	for (i = 0; i < body.n; i++) {
		struct insn in = body.v[i];
		code_add(&g->code, in);
	}
	place_label(g, g->return_label);
	for (i = 0; i < g->sregs_used; i++)
		emit(g, O_LW, R_S0 + i, R_SP, 0, save_base + 4 * i);
	emit(g, O_LW, R_RA, R_SP, 0, frame - 4);
	emit(g, O_ADDIU, R_SP, R_SP, 0, frame);
	emit(g, O_JR, 0, R_RA, 0, 0);
	full = g->code;
	g->st->peephole_removed += peephole(&full);
	for (i = 0; i < full.n; i++)
		g->st->instructions += !full.v[i].dead && full.v[i].op != O_LABEL && full.v[i].op != O_COMMENT;
	emit_code(o, &full, fn->sym->name);
	free(body.v);
	free(full.v);
	g->st->functions++;
}

static void emit_string(struct out *o, const char *s, int len)
{
	int i;
	out_str(o, "\t.asciiz\t\"");
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			out_char(o, '\\');
			out_char(o, (char)c);
		} else if (c == '\n') {
			out_str(o, "\\n");
		} else if (c < 32 || c > 126) {
			out_char(o, '\\');
			out_char(o, (char)('0' + (c >> 6)));
			out_char(o, (char)('0' + ((c >> 3) & 7)));
			out_char(o, (char)('0' + (c & 7)));
		} else {
			out_char(o, (char)c);
		}
	}
	out_str(o, "\"\n");
}

void gen_program(struct program *prog, struct out *o, struct gen_stats *st)
{
	struct gen g;
	struct function *fn;
	struct sym *s;
	struct node *str, *strs[4096];
	int nstr = 0, i;
	memset(&g, 0, sizeof g);
	g.st = st;
	out_str(o, "\t.text\n");
	for (fn = prog->funcs; fn; fn = fn->next)
		gen_function(&g, fn, o);
	if (prog->globals)
		out_str(o, "\n\t.data\n");
	for (s = prog->globals; s; s = s->list_next) {
		int size = type_size(s->type), words = 0;
		out_str(o, "\t.align\t2\n\t.globl\t");
		out_str(o, s->name);
		out_str(o, "\n");
		out_str(o, s->name);
		out_str(o, ":\n");
		if (s->init && s->init->op == N_STR && s->type->kind == TY_ARRAY) {
			emit_string(o, s->init->str, s->init->len);
			if (size > s->init->len + 1) {
				out_str(o, "\t.space\t");
				out_num(o, size - s->init->len - 1);
				out_char(o, '\n');
			}
			continue;
		}
		if (s->init && s->init->op == N_STR) {
			out_str(o, "\t.word\t$LC");
			out_num(o, s->init->value);
			out_char(o, '\n');
			continue;
		}
		for (str = s->init; str; str = str->next) {
			out_str(o, s->type->kind == TY_ARRAY && s->type->base->kind == TY_CHAR ? "\t.byte\t" : "\t.word\t");
			out_num(o, str->value);
			out_char(o, '\n');
			words++;
		}
		{
			int elem = s->type->kind == TY_ARRAY ? type_size(s->type->base) : size;
			if (size - words * elem > 0) {
				out_str(o, "\t.space\t");
				out_num(o, size - words * elem);
				out_char(o, '\n');
			}
		}
	}
	/* string literals, in order of appearance */
	for (str = prog->strings; str && nstr < 4096; str = str->next)
		strs[nstr++] = str;
	if (nstr)
		out_str(o, "\n\t.rdata\n");
	for (i = nstr - 1; i >= 0; i--) {
		out_str(o, "$LC");
		out_num(o, strs[i]->value);
		out_str(o, ":\n");
		emit_string(o, strs[i]->str, strs[i]->len);
	}
}
