/*
 * The evaluator. Environments are association lists ((symbol . value) ...) in front of the
 * symbols' global values; a lambda captures the environment it is evaluated in. Special forms
 * are FSUBRs found through the operator symbol's global value and receive their arguments
 * unevaluated.
 */
#include <stdio.h>
#include <string.h>
#include "li.h"

static obj lookup_cell(obj sym, obj env)
{
	for (; env != nil; env = cdr(env))
		if (car(car(env)) == sym)
			return car(env);
	return 0;
}

static obj evlist(obj args, obj env)
{
	obj head = nil, tail = nil, v;
	PROTECT(args);
	PROTECT(env);
	PROTECT(head);
	PROTECT(tail);
	for (; consp(args); args = cdr(args)) {
		v = eval(car(args), env);
		v = cons(v, nil);
		if (head == nil)
			head = v;
		else
			cdr(tail) = v;
		tail = v;
	}
	UNPROTECT(4);
	return head;
}

obj eval(obj x, obj env)
{
	obj f, args, v;
	if (symbolp(x)) {
		obj b = lookup_cell(x, env);
		if (b)
			return cdr(b);
		if (!x->u.sym.value)
			fatal("unbound variable", x);
		return x->u.sym.value;
	}
	if (!consp(x))
		return x;               /* numbers, strings, procedures evaluate to themselves */
	f = car(x);
	if (symbolp(f) && f->u.sym.value && f->u.sym.value->type == T_FSUBR)
		return f->u.sym.value->u.fsubr.fn(cdr(x), env);
	PROTECT(x);
	PROTECT(env);
	f = eval(f, env);
	PROTECT(f);
	args = evlist(cdr(x), env);
	PROTECT(args);
	v = apply(f, args);
	UNPROTECT(4);
	return v;
}

obj progn(obj body, obj env)
{
	obj v = nil;
	PROTECT(body);
	PROTECT(env);
	for (; consp(body); body = cdr(body))
		v = eval(car(body), env);
	UNPROTECT(2);
	return v;
}

obj apply(obj f, obj args)
{
	obj env, params, v;
	if (symbolp(f) && f->u.sym.value)       /* (apply '+ ...): a symbol names its global function */
		f = f->u.sym.value;
	switch (f->type) {
	case T_SUBR:
		return f->u.subr.fn(args);
	case T_CLOSURE:
		env = f->u.closure.env;
		PROTECT(f);
		PROTECT(args);
		PROTECT(env);
		for (params = f->u.closure.params; consp(params); params = cdr(params)) {
			if (!consp(args))
				fatal("too few arguments", f->u.closure.params);
			v = cons(car(params), car(args));
			env = cons(v, env);
			args = cdr(args);
		}
		if (params != nil) {            /* (a b . rest) binds the remaining arguments */
			v = cons(params, args);
			env = cons(v, env);
		} else if (args != nil) {
			fatal("too many arguments", f->u.closure.params);
		}
		v = progn(f->u.closure.body, env);
		UNPROTECT(3);
		return v;
	default:
		fatal("not a function", f);
		return nil;
	}
}

/* ---- special forms ---- */

static obj f_quote(obj args, obj env)
{
	(void)env;
	return car(args);
}

static obj f_if(obj args, obj env)
{
	obj c;
	PROTECT(args);
	PROTECT(env);
	c = eval(car(args), env);
	UNPROTECT(2);
	if (c != nil)
		return eval(car(cdr(args)), env);
	return progn(cdr(cdr(args)), env);
}

static obj f_cond(obj args, obj env)
{
	obj c = nil;
	PROTECT(args);
	PROTECT(env);
	for (; consp(args); args = cdr(args)) {
		c = eval(car(car(args)), env);
		if (c != nil) {
			if (consp(cdr(car(args))))
				c = progn(cdr(car(args)), env);
			break;
		}
	}
	UNPROTECT(2);
	return c;
}

static obj f_and(obj args, obj env)
{
	obj v = t_sym;
	PROTECT(args);
	PROTECT(env);
	for (; consp(args); args = cdr(args))
		if ((v = eval(car(args), env)) == nil)
			break;
	UNPROTECT(2);
	return v;
}

static obj f_or(obj args, obj env)
{
	obj v = nil;
	PROTECT(args);
	PROTECT(env);
	for (; consp(args); args = cdr(args))
		if ((v = eval(car(args), env)) != nil)
			break;
	UNPROTECT(2);
	return v;
}

static obj f_progn(obj args, obj env)
{
	return progn(args, env);
}

static obj f_setq(obj args, obj env)
{
	obj v = nil, b;
	PROTECT(args);
	PROTECT(env);
	for (; consp(args); args = cdr(cdr(args))) {
		obj sym = car(args);
		if (!symbolp(sym) || !consp(cdr(args)))
			fatal("bad setq", sym);
		v = eval(car(cdr(args)), env);
		b = lookup_cell(sym, env);
		if (b)
			cdr(b) = v;
		else
			sym->u.sym.value = v;
	}
	UNPROTECT(2);
	return v;
}

/* let binds in parallel (initial values see the outer environment), let* in sequence. */
static obj do_let(obj args, obj env, int sequential)
{
	obj newenv = env, b, v;
	PROTECT(args);
	PROTECT(env);
	PROTECT(newenv);
	for (b = car(args); consp(b); b = cdr(b)) {
		obj spec = car(b), sym = consp(spec) ? car(spec) : spec;
		v = consp(spec) && consp(cdr(spec)) ? eval(car(cdr(spec)), sequential ? newenv : env) : nil;
		v = cons(sym, v);
		newenv = cons(v, newenv);
	}
	v = progn(cdr(args), newenv);
	UNPROTECT(3);
	return v;
}

static obj f_let(obj args, obj env)
{
	return do_let(args, env, 0);
}

static obj f_letstar(obj args, obj env)
{
	return do_let(args, env, 1);
}

static obj make_closure(obj params, obj body, obj env)
{
	obj c;
	PROTECT(params);
	PROTECT(body);
	PROTECT(env);
	c = cons(nil, nil);             /* allocate, then retype */
	c->type = T_CLOSURE;
	c->u.closure.params = params;
	c->u.closure.body = body;
	c->u.closure.env = env;
	UNPROTECT(3);
	return c;
}

static obj f_lambda(obj args, obj env)
{
	return make_closure(car(args), cdr(args), env);
}

static obj f_defun(obj args, obj env)
{
	obj name = car(args);
	(void)env;
	if (!symbolp(name))
		fatal("defun needs a symbol", name);
	name->u.sym.value = make_closure(car(cdr(args)), cdr(cdr(args)), nil);
	return name;
}

static obj f_while(obj args, obj env)
{
	PROTECT(args);
	PROTECT(env);
	while (eval(car(args), env) != nil)
		progn(cdr(args), env);
	UNPROTECT(2);
	return nil;
}

static void def_fsubr(const char *name, fsubr_fn fn)
{
	obj s = intern(name), c = cons(nil, nil);
	c->type = T_FSUBR;
	c->u.fsubr.fn = fn;
	c->u.fsubr.name = s->u.sym.name;
	s->u.sym.value = c;
}

void eval_init(void)
{
	def_fsubr("quote", f_quote);
	def_fsubr("if", f_if);
	def_fsubr("cond", f_cond);
	def_fsubr("and", f_and);
	def_fsubr("or", f_or);
	def_fsubr("progn", f_progn);
	def_fsubr("setq", f_setq);
	def_fsubr("let", f_let);
	def_fsubr("let*", f_letstar);
	def_fsubr("lambda", f_lambda);
	def_fsubr("defun", f_defun);
	def_fsubr("while", f_while);
}
