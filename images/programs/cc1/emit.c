/* The peephole pass and the assembly text emitter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc1.h"

void out_char(struct out *o, char c)
{
	if (o->len == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 65536;
		o->buf = realloc(o->buf, o->cap);
		if (!o->buf) {
			fprintf(stderr, "cc1: out of memory\n");
			exit(1);
		}
	}
	o->buf[o->len++] = c;
}

void out_str(struct out *o, const char *s)
{
	while (*s)
		out_char(o, *s++);
}

void out_num(struct out *o, long v)
{
	char tmp[24];
	int n = 0;
	unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;
	if (v < 0)
		out_char(o, '-');
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n > 0)
		out_char(o, tmp[--n]);
}

/* ---- peephole ---- */

static int next_live(const struct codebuf *cb, int i)
{
	for (i++; i < cb->n && (cb->v[i].dead || cb->v[i].op == O_COMMENT); i++)
		;
	return i;
}

static int is_branch(enum opc op)
{
	return op == O_BEQZ || op == O_BNEZ || op == O_BEQ || op == O_BNE || op == O_J;
}

int peephole(struct codebuf *cb)
{
	int changed = 1, removed = 0, i, j;
	char *used = 0;
	int maxlabel = 0;
	for (i = 0; i < cb->n; i++)
		if (cb->v[i].label >= maxlabel)
			maxlabel = cb->v[i].label + 1;
	used = malloc((size_t)maxlabel + 1);
	if (!used) {
		fprintf(stderr, "cc1: out of memory\n");
		exit(1);
	}
	while (changed) {
		changed = 0;
		for (i = 0; i < cb->n; i++) {
			struct insn *in = &cb->v[i];
			if (in->dead)
				continue;
			if (in->op == O_MOVE && in->rd == in->rs) {
				in->dead = 1;
				changed = 1;
				continue;
			}
			if (in->op == O_J || in->op == O_JR) {
				/* nothing after an unconditional jump runs until the next label */
				for (j = i + 1; j < cb->n && cb->v[j].op != O_LABEL; j++)
					if (!cb->v[j].dead) {
						cb->v[j].dead = 1;
						changed = 1;
					}
			}
			if (is_branch(in->op)) {
				/* a jump to the label that follows anyway */
				for (j = next_live(cb, i); j < cb->n && cb->v[j].op == O_LABEL; j = next_live(cb, j))
					if (cb->v[j].label == in->label) {
						in->dead = 1;
						changed = 1;
						break;
					}
				if (in->dead)
					continue;
			}
			if (in->op == O_BEQZ || in->op == O_BNEZ || in->op == O_BEQ || in->op == O_BNE) {
				/* b L1; j L2; L1:  ->  b-inverse L2; L1: */
				int k = next_live(cb, i), m;
				if (k < cb->n && cb->v[k].op == O_J) {
					m = next_live(cb, k);
					if (m < cb->n && cb->v[m].op == O_LABEL && cb->v[m].label == in->label) {
						in->op = in->op == O_BEQZ ? O_BNEZ : in->op == O_BNEZ ? O_BEQZ : in->op == O_BEQ ? O_BNE : O_BEQ;
						in->label = cb->v[k].label;
						cb->v[k].dead = 1;
						changed = 1;
						continue;
					}
				}
			}
			if (in->op == O_MOVE) {
				/* move x,y; op x,x,z  ->  op x,y,z (x is overwritten anyway) */
				int k = next_live(cb, i);
				struct insn *nx = &cb->v[k < cb->n ? k : i];
				int three = nx->op >= O_ADDU && nx->op <= O_SGE;
				int imm = nx->op >= O_ADDIU && nx->op <= O_SLTI;
				if (k < cb->n && (three || imm) && nx->rd == in->rd && nx->rs == in->rd) {
					nx->rs = in->rs;
					if (three && nx->rt == in->rd)
						nx->rt = in->rs;
					in->dead = 1;
					changed = 1;
					continue;
				}
			}
			if (in->op == O_ADDIU && in->rs == R_SP) {
				/* addiu x,$sp,k; lw x,0(x)  ->  lw x,k($sp) */
				int k = next_live(cb, i);
				struct insn *nx = &cb->v[k < cb->n ? k : i];
				if (k < cb->n && (nx->op == O_LW || nx->op == O_LB) && nx->rs == in->rd && nx->rd == in->rd && nx->imm == 0) {
					nx->rs = R_SP;
					nx->imm = in->imm;
					in->dead = 1;
					changed = 1;
					continue;
				}
			}
			if (in->op == O_SW && in->rs == R_SP) {
				/* a store to the frame reloaded at once */
				int k = next_live(cb, i);
				if (k < cb->n && cb->v[k].op == O_LW && cb->v[k].rs == R_SP && cb->v[k].imm == in->imm) {
					cb->v[k].op = O_MOVE;
					cb->v[k].rs = in->rd;
					changed = 1;
				}
			}
		}
		/* labels nobody jumps to */
		memset(used, 0, (size_t)maxlabel + 1);
		for (i = 0; i < cb->n; i++)
			if (!cb->v[i].dead && cb->v[i].op != O_LABEL && cb->v[i].label >= 0)
				used[cb->v[i].label] = 1;
		for (i = 0; i < cb->n; i++)
			if (!cb->v[i].dead && cb->v[i].op == O_LABEL && !used[cb->v[i].label]) {
				cb->v[i].dead = 1;
				changed = 1;
			}
	}
	free(used);
	for (i = 0; i < cb->n; i++)
		removed += cb->v[i].dead;
	return removed;
}

/* ---- text ---- */

static const char *const regname[32] = {
	"$zero", "$at", "$v0", "$v1", "$a0", "$a1", "$a2", "$a3", "$t0", "$t1", "$t2", "$t3", "$t4",
	"$t5", "$t6", "$t7", "$s0", "$s1", "$s2", "$s3", "$s4", "$s5", "$s6", "$s7", "$t8", "$t9",
	"$k0", "$k1", "$gp", "$sp", "$fp", "$ra",
};

static const char *const opname[] = {
	"", "li", "la", "move", "addu", "subu", "mul", "div", "rem", "and", "or", "xor", "nor",
	"sllv", "srav", "slt", "sltu", "seq", "sne", "sle", "sgt", "sge", "addiu", "andi", "ori",
	"xori", "sll", "sra", "slti", "negu", "lw", "sw", "lb", "sb", "beqz", "bnez", "beq", "bne",
	"j", "jal", "jr", "#",
};

static void reg(struct out *o, int r)
{
	out_str(o, regname[r & 31]);
}

static void label(struct out *o, int l)
{
	out_str(o, "$L");
	out_num(o, l);
}

void emit_code(struct out *o, const struct codebuf *cb, const char *fname)
{
	int i;
	out_str(o, "\n\t.align\t2\n\t.globl\t");
	out_str(o, fname);
	out_str(o, "\n\t.ent\t");
	out_str(o, fname);
	out_char(o, '\n');
	out_str(o, fname);
	out_str(o, ":\n");
	for (i = 0; i < cb->n; i++) {
		const struct insn *in = &cb->v[i];
		if (in->dead)
			continue;
		if (in->op == O_LABEL) {
			label(o, in->label);
			out_str(o, ":\n");
			continue;
		}
		out_char(o, '\t');
		out_str(o, opname[in->op]);
		out_char(o, '\t');
		switch (in->op) {
		case O_LI:
			reg(o, in->rd);
			out_char(o, ',');
			out_num(o, in->imm);
			break;
		case O_LA:
			reg(o, in->rd);
			out_char(o, ',');
			out_str(o, in->sym);
			break;
		case O_MOVE:
		case O_NEGU:
			reg(o, in->rd);
			out_char(o, ',');
			reg(o, in->rs);
			break;
		case O_ADDIU: case O_ANDI: case O_ORI: case O_XORI: case O_SLL: case O_SRA: case O_SLTI:
			reg(o, in->rd);
			out_char(o, ',');
			reg(o, in->rs);
			out_char(o, ',');
			out_num(o, in->imm);
			break;
		case O_LW: case O_SW: case O_LB: case O_SB:
			reg(o, in->rd);
			out_char(o, ',');
			out_num(o, in->imm);
			out_char(o, '(');
			reg(o, in->rs);
			out_char(o, ')');
			break;
		case O_BEQZ: case O_BNEZ:
			reg(o, in->rs);
			out_char(o, ',');
			label(o, in->label);
			break;
		case O_BEQ: case O_BNE:
			reg(o, in->rs);
			out_char(o, ',');
			reg(o, in->rt);
			out_char(o, ',');
			label(o, in->label);
			break;
		case O_J:
			label(o, in->label);
			break;
		case O_JAL:
			out_str(o, in->sym);
			break;
		case O_JR:
			reg(o, in->rs);
			break;
		case O_COMMENT:
			break;
		default:                /* three registers */
			reg(o, in->rd);
			out_char(o, ',');
			reg(o, in->rs);
			out_char(o, ',');
			reg(o, in->rt);
			break;
		}
		out_char(o, '\n');
	}
	out_str(o, "\t.end\t");
	out_str(o, fname);
	out_char(o, '\n');
}
