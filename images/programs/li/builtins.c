/* Primitive procedures: fixnum arithmetic, list operations, predicates, output, application. */
#include <stdio.h>
#include "li.h"

#define BOOL(c) ((c) ? t_sym : nil)

static obj arg1(obj args)
{
	if (!consp(args))
		fatal("missing argument", nil);
	return car(args);
}

static obj arg2(obj args)
{
	if (!consp(args) || !consp(cdr(args)))
		fatal("missing argument", nil);
	return car(cdr(args));
}

static long num(obj x)
{
	if (!fixp(x))
		fatal("not a number", x);
	return fixval(x);
}

static obj list_arg(obj x)
{
	if (x != nil && !consp(x))
		fatal("not a list", x);
	return x;
}

/* ---- arithmetic ---- */

static obj p_add(obj args)
{
	long s = 0;
	for (; consp(args); args = cdr(args))
		s += num(car(args));
	return mkfix(s);
}

static obj p_mul(obj args)
{
	long s = 1;
	for (; consp(args); args = cdr(args))
		s *= num(car(args));
	return mkfix(s);
}

static obj p_sub(obj args)
{
	long s = num(arg1(args));
	if (!consp(cdr(args)))
		return mkfix(-s);
	for (args = cdr(args); consp(args); args = cdr(args))
		s -= num(car(args));
	return mkfix(s);
}

static obj p_div(obj args)
{
	long s = num(arg1(args));
	for (args = cdr(args); consp(args); args = cdr(args)) {
		long d = num(car(args));
		if (d == 0)
			fatal("division by zero", car(args));
		s /= d;
	}
	return mkfix(s);
}

static obj p_rem(obj args)
{
	long d = num(arg2(args));
	if (d == 0)
		fatal("division by zero", arg2(args));
	return mkfix(num(arg1(args)) % d);
}

static obj p_inc(obj args) { return mkfix(num(arg1(args)) + 1); }
static obj p_dec(obj args) { return mkfix(num(arg1(args)) - 1); }

static obj p_abs(obj args)
{
	long v = num(arg1(args));
	return mkfix(v < 0 ? -v : v);
}

/* Comparison chains: (< a b c) is a < b and b < c. */
static obj compare(obj args, int op)
{
	long a = num(arg1(args));
	for (args = cdr(args); consp(args); args = cdr(args)) {
		long b = num(car(args));
		int ok = op == 0 ? a == b : op == 1 ? a < b : op == 2 ? a > b : op == 3 ? a <= b : op == 4 ? a >= b : a != b;
		if (!ok)
			return nil;
		a = b;
	}
	return t_sym;
}

static obj p_eq_num(obj a) { return compare(a, 0); }
static obj p_lt(obj a) { return compare(a, 1); }
static obj p_gt(obj a) { return compare(a, 2); }
static obj p_le(obj a) { return compare(a, 3); }
static obj p_ge(obj a) { return compare(a, 4); }
static obj p_ne(obj a) { return compare(a, 5); }
static obj p_zerop(obj args) { return BOOL(num(arg1(args)) == 0); }

/* ---- lists ---- */

static obj p_car(obj args)
{
	obj x = list_arg(arg1(args));
	return x == nil ? nil : car(x);
}

static obj p_cdr(obj args)
{
	obj x = list_arg(arg1(args));
	return x == nil ? nil : cdr(x);
}

static obj p_cadr(obj args) { obj x = p_cdr(args); return consp(x) ? car(x) : nil; }
static obj p_cddr(obj args) { obj x = p_cdr(args); return consp(x) ? cdr(x) : nil; }
static obj p_caar(obj args) { obj x = p_car(args); return consp(x) ? car(x) : nil; }

static obj p_cons(obj args)
{
	return cons(arg1(args), arg2(args));
}

static obj p_list(obj args)
{
	return args;            /* the evaluated argument list is fresh */
}

static obj p_length(obj args)
{
	long n = 0;
	obj x;
	for (x = list_arg(arg1(args)); consp(x); x = cdr(x))
		n++;
	return mkfix(n);
}

static obj p_reverse(obj args)
{
	obj r = nil, x = list_arg(arg1(args));
	PROTECT(x);
	PROTECT(r);
	for (; consp(x); x = cdr(x))
		r = cons(car(x), r);
	UNPROTECT(2);
	return r;
}

/* (append a b ... z): copies every list but the last. */
static obj p_append(obj args)
{
	obj head = nil, tail = nil, x, c;
	PROTECT(args);
	PROTECT(head);
	PROTECT(tail);
	for (; consp(args); args = cdr(args)) {
		if (!consp(cdr(args))) {
			if (head == nil)
				head = car(args);
			else
				cdr(tail) = car(args);
			break;
		}
		for (x = list_arg(car(args)); consp(x); x = cdr(x)) {
			c = cons(car(x), nil);
			if (head == nil)
				head = c;
			else
				cdr(tail) = c;
			tail = c;
		}
	}
	UNPROTECT(3);
	return head;
}

static obj p_nth(obj args)
{
	long n = num(arg1(args));
	obj x = list_arg(arg2(args));
	for (; n > 0 && consp(x); n--)
		x = cdr(x);
	return consp(x) ? car(x) : nil;
}

static int equal(obj a, obj b)
{
	while (consp(a) && consp(b)) {
		if (!equal(car(a), car(b)))
			return 0;
		a = cdr(a);
		b = cdr(b);
	}
	if (a == b)
		return 1;
	if (fixp(a) && fixp(b))
		return fixval(a) == fixval(b);
	if (a->type == T_STRING && b->type == T_STRING) {
		long i;
		if (a->u.str.len != b->u.str.len)
			return 0;
		for (i = 0; i < a->u.str.len; i++)
			if (a->u.str.chars[i] != b->u.str.chars[i])
				return 0;
		return 1;
	}
	return 0;
}

static int eql(obj a, obj b)
{
	return a == b || (fixp(a) && fixp(b) && fixval(a) == fixval(b));
}

static obj p_member(obj args)
{
	obj x;
	for (x = list_arg(arg2(args)); consp(x); x = cdr(x))
		if (equal(arg1(args), car(x)))
			return x;
	return nil;
}

static obj p_assoc(obj args)
{
	obj x;
	for (x = list_arg(arg2(args)); consp(x); x = cdr(x))
		if (consp(car(x)) && equal(arg1(args), car(car(x))))
			return car(x);
	return nil;
}

static obj p_rplaca(obj args)
{
	obj x = arg1(args);
	if (!consp(x))
		fatal("rplaca of a non-cons", x);
	car(x) = arg2(args);
	return x;
}

static obj p_rplacd(obj args)
{
	obj x = arg1(args);
	if (!consp(x))
		fatal("rplacd of a non-cons", x);
	cdr(x) = arg2(args);
	return x;
}

/* ---- predicates ---- */

static obj p_null(obj args) { return BOOL(arg1(args) == nil); }
static obj p_atom(obj args) { return BOOL(!consp(arg1(args))); }
static obj p_consp(obj args) { return BOOL(consp(arg1(args))); }
static obj p_numberp(obj args) { return BOOL(fixp(arg1(args))); }
static obj p_symbolp(obj args) { return BOOL(symbolp(arg1(args))); }
static obj p_eq(obj args) { return BOOL(arg1(args) == arg2(args)); }
static obj p_eql(obj args) { return BOOL(eql(arg1(args), arg2(args))); }
static obj p_equal(obj args) { return BOOL(equal(arg1(args), arg2(args))); }

/* ---- output ---- */

static obj p_print(obj args)
{
	lisp_print(arg1(args), 1);
	putchar('\n');
	return arg1(args);
}

static obj p_prin1(obj args)
{
	lisp_print(arg1(args), 1);
	return arg1(args);
}

static obj p_princ(obj args)
{
	lisp_print(arg1(args), 0);
	return arg1(args);
}

static obj p_terpri(obj args)
{
	(void)args;
	putchar('\n');
	return nil;
}

/* ---- application ---- */

static obj p_funcall(obj args)
{
	return apply(arg1(args), cdr(args));
}

/* (apply f a b list): f applied to a, b and the elements of list. */
static obj p_apply(obj args)
{
	obj f = arg1(args), spread = nil, tail = nil, c;
	PROTECT(args);
	PROTECT(spread);
	PROTECT(tail);
	for (args = cdr(args); consp(args); args = cdr(args)) {
		if (!consp(cdr(args))) {
			if (spread == nil)
				spread = list_arg(car(args));
			else
				cdr(tail) = list_arg(car(args));
			break;
		}
		c = cons(car(args), nil);
		if (spread == nil)
			spread = c;
		else
			cdr(tail) = c;
		tail = c;
	}
	c = apply(f, spread);
	UNPROTECT(3);
	return c;
}

/* (mapcar f list) */
static obj p_mapcar(obj args)
{
	obj f = arg1(args), x = list_arg(arg2(args)), head = nil, tail = nil, v;
	PROTECT(f);
	PROTECT(x);
	PROTECT(head);
	PROTECT(tail);
	for (; consp(x); x = cdr(x)) {
		v = cons(car(x), nil);
		v = apply(f, v);
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

static obj p_gc(obj args)
{
	(void)args;
	gc();
	return mkfix(gc_count);
}

static obj p_error(obj args)
{
	fatal("error called", consp(args) ? car(args) : nil);
	return nil;
}

static void def_subr(const char *name, subr_fn fn)
{
	obj s = intern(name), c = cons(nil, nil);
	c->type = T_SUBR;
	c->u.subr.fn = fn;
	c->u.subr.name = s->u.sym.name;
	s->u.sym.value = c;
}

void builtins_init(void)
{
	def_subr("+", p_add);
	def_subr("-", p_sub);
	def_subr("*", p_mul);
	def_subr("/", p_div);
	def_subr("rem", p_rem);
	def_subr("1+", p_inc);
	def_subr("1-", p_dec);
	def_subr("abs", p_abs);
	def_subr("=", p_eq_num);
	def_subr("<", p_lt);
	def_subr(">", p_gt);
	def_subr("<=", p_le);
	def_subr(">=", p_ge);
	def_subr("/=", p_ne);
	def_subr("zerop", p_zerop);
	def_subr("car", p_car);
	def_subr("cdr", p_cdr);
	def_subr("cadr", p_cadr);
	def_subr("cddr", p_cddr);
	def_subr("caar", p_caar);
	def_subr("cons", p_cons);
	def_subr("list", p_list);
	def_subr("length", p_length);
	def_subr("reverse", p_reverse);
	def_subr("append", p_append);
	def_subr("nth", p_nth);
	def_subr("member", p_member);
	def_subr("assoc", p_assoc);
	def_subr("rplaca", p_rplaca);
	def_subr("rplacd", p_rplacd);
	def_subr("null", p_null);
	def_subr("not", p_null);
	def_subr("atom", p_atom);
	def_subr("consp", p_consp);
	def_subr("numberp", p_numberp);
	def_subr("symbolp", p_symbolp);
	def_subr("eq", p_eq);
	def_subr("eql", p_eql);
	def_subr("equal", p_equal);
	def_subr("print", p_print);
	def_subr("prin1", p_prin1);
	def_subr("princ", p_princ);
	def_subr("terpri", p_terpri);
	def_subr("funcall", p_funcall);
	def_subr("apply", p_apply);
	def_subr("mapcar", p_mapcar);
	def_subr("gc", p_gc);
	def_subr("error", p_error);
}
