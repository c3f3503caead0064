/*
 * strftime (C99, POSIX.1) in the C locale, and asctime, ctime and their _r forms.
 *
 * Every C99 and POSIX conversion, the E and O modifiers (which change nothing in the C locale),
 * and the GNU additions programs use: %k %l %P %s, the flags '-' (no padding), '_' (spaces),
 * '0' (zeros), '^' (upper case) and a field width. There are no time zones: %z is +0000 and %Z
 * GMT (what gmtime's result carries in 4.4BSD and glibc alike).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *const wday_name[7] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
};
static const char *const mon_name[12] = {
	"January", "February", "March", "April", "May", "June", "July", "August", "September",
	"October", "November", "December",
};

/* Weeks in the ISO 8601 year y: 53 when it starts on a Thursday, or on a Wednesday in a leap year. */
static int
iso_weeks(long y)
{
	long p = (y + y / 4 - y / 100 + y / 400) % 7, q = ((y - 1) + (y - 1) / 4 - (y - 1) / 100 + (y - 1) / 400) % 7;

	return p == 4 || q == 3 ? 53 : 52;
}

/* The ISO 8601 week number of tm, and its week-based year in *year. */
static int
iso_week(const struct tm *tm, long *year)
{
	long y = tm->tm_year + 1900L;
	int wd = (tm->tm_wday + 6) % 7;		/* Monday 0 */
	int w = (tm->tm_yday - wd + 10) / 7;

	if (w < 1) {
		y--;
		w = iso_weeks(y);
	} else if (w > iso_weeks(y)) {
		y++;
		w = 1;
	}
	*year = y;
	return w;
}

struct out {
	char *s;
	size_t max, n;
};

static void
put(struct out *o, const char *s, size_t len)
{
	while (len-- > 0) {
		if (o->n + 1 < o->max)
			o->s[o->n] = *s;
		o->n++;
		s++;
	}
}

static size_t fmt(struct out *o, const char *f, const struct tm *tm);

/*
 * A number: at least `digits` digits, padded with pad ('0' or ' ') unless the conversion's flag
 * says otherwise; width overrides the number of digits.
 */
static void
num(struct out *o, long v, int digits, char pad, int flag, int width)
{
	char buf[32];
	int neg = v < 0, len;
	unsigned long u = neg ? -(unsigned long)v : (unsigned long)v;
	char *p = buf + sizeof buf;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (flag == '_')
		pad = ' ';
	else if (flag == '0')
		pad = '0';
	if (flag == '-') {
		/* No padding; a width still pads, with spaces (as glibc). */
		digits = width;
		pad = ' ';
	} else if (width > 0) {
		digits = width;
	}
	len = (int)(buf + sizeof buf - p) + neg;
	if (pad == ' ') {
		while (len < digits) {
			put(o, " ", 1);
			len++;
		}
		if (neg)
			put(o, "-", 1);
	} else {
		if (neg)
			put(o, "-", 1);
		while (len < digits) {
			put(o, "0", 1);
			len++;
		}
	}
	put(o, p, (size_t)(buf + sizeof buf - p));
}

/* A string, upper-cased with '^', right-aligned in width. */
static void
str(struct out *o, const char *s, size_t len, int flag, int width)
{
	char c;

	for (; width > (int)len; width--)
		put(o, flag == '0' ? "0" : " ", 1);
	while (len-- > 0) {
		c = *s++;
		if (flag == '^' && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		put(o, &c, 1);
	}
}

/* A sub-format (%c, %D, ...), padded as a string. */
static void
sub(struct out *o, const char *f, const struct tm *tm, int flag, int width)
{
	char buf[128];
	struct out t = { buf, sizeof buf, 0 };

	fmt(&t, f, tm);
	str(o, buf, t.n < sizeof buf ? t.n : sizeof buf - 1, flag, width);
}

static size_t
fmt(struct out *o, const char *f, const struct tm *tm)
{
	int flag, width, h12 = tm->tm_hour % 12 == 0 ? 12 : tm->tm_hour % 12;
	long y = tm->tm_year + 1900L, iy;
	const char *name;

	for (; *f; f++) {
		if (*f != '%') {
			put(o, f, 1);
			continue;
		}
		flag = 0;
		width = 0;
		if (f[1] == '-' || f[1] == '_' || f[1] == '0' || f[1] == '^' || f[1] == '#')
			flag = *++f;
		while (f[1] >= '0' && f[1] <= '9')
			width = width * 10 + (*++f - '0');
		if (f[1] == 'E' || f[1] == 'O')
			f++;
		switch (*++f) {
		case 'a':
		case 'A':
			name = tm->tm_wday >= 0 && tm->tm_wday < 7 ? wday_name[tm->tm_wday] : "?";
			str(o, name, *f == 'a' ? (strlen(name) < 3 ? strlen(name) : 3) : strlen(name), flag, width);
			break;
		case 'b':
		case 'h':
		case 'B':
			name = tm->tm_mon >= 0 && tm->tm_mon < 12 ? mon_name[tm->tm_mon] : "?";
			str(o, name, *f == 'B' ? strlen(name) : (strlen(name) < 3 ? strlen(name) : 3), flag, width);
			break;
		case 'c':
			sub(o, "%a %b %e %H:%M:%S %Y", tm, flag, width);
			break;
		case 'C':
			num(o, (y - (y < 0 && y % 100 ? 100 : 0)) / 100, 2, '0', flag, width);
			break;
		case 'd':
			num(o, tm->tm_mday, 2, '0', flag, width);
			break;
		case 'D':
			sub(o, "%m/%d/%y", tm, flag, width);
			break;
		case 'e':
			num(o, tm->tm_mday, 2, ' ', flag, width);
			break;
		case 'F':
			sub(o, "%Y-%m-%d", tm, flag, width);
			break;
		case 'g':
			iso_week(tm, &iy);
			num(o, (iy % 100 + 100) % 100, 2, '0', flag, width);
			break;
		case 'G':
			iso_week(tm, &iy);
			num(o, iy, 1, '0', flag, width);
			break;
		case 'H':
			num(o, tm->tm_hour, 2, '0', flag, width);
			break;
		case 'I':
			num(o, h12, 2, '0', flag, width);
			break;
		case 'j':
			num(o, tm->tm_yday + 1, 3, '0', flag, width);
			break;
		case 'k':
			num(o, tm->tm_hour, 2, ' ', flag, width);
			break;
		case 'l':
			num(o, h12, 2, ' ', flag, width);
			break;
		case 'm':
			num(o, tm->tm_mon + 1, 2, '0', flag, width);
			break;
		case 'M':
			num(o, tm->tm_min, 2, '0', flag, width);
			break;
		case 'n':
			put(o, "\n", 1);
			break;
		case 'p':
			str(o, tm->tm_hour < 12 ? "AM" : "PM", 2, flag, width);
			break;
		case 'P':
			str(o, tm->tm_hour < 12 ? "am" : "pm", 2, flag, width);
			break;
		case 'r':
			sub(o, "%I:%M:%S %p", tm, flag, width);
			break;
		case 'R':
			sub(o, "%H:%M", tm, flag, width);
			break;
		case 's': {
			struct tm t = *tm;

			num(o, (long)mktime(&t), 1, '0', flag, width);
			break;
		}
		case 'S':
			num(o, tm->tm_sec, 2, '0', flag, width);
			break;
		case 't':
			put(o, "\t", 1);
			break;
		case 'T':
			sub(o, "%H:%M:%S", tm, flag, width);
			break;
		case 'u':
			num(o, tm->tm_wday == 0 ? 7 : tm->tm_wday, 1, '0', flag, width);
			break;
		case 'U':
			num(o, (tm->tm_yday + 7 - tm->tm_wday) / 7, 2, '0', flag, width);
			break;
		case 'V':
			num(o, iso_week(tm, &iy), 2, '0', flag, width);
			break;
		case 'w':
			num(o, tm->tm_wday, 1, '0', flag, width);
			break;
		case 'W':
			num(o, (tm->tm_yday + 7 - (tm->tm_wday + 6) % 7) / 7, 2, '0', flag, width);
			break;
		case 'x':
			sub(o, "%m/%d/%y", tm, flag, width);
			break;
		case 'X':
			sub(o, "%H:%M:%S", tm, flag, width);
			break;
		case 'y':
			num(o, (y % 100 + 100) % 100, 2, '0', flag, width);
			break;
		case 'Y':
			num(o, y, 1, '0', flag, width);
			break;
		case 'z':
			str(o, "+0000", 5, flag, width);
			break;
		case 'Z':
			str(o, "GMT", 3, flag, width);
			break;
		case '+':
			sub(o, "%a %b %e %H:%M:%S %Z %Y", tm, flag, width);
			break;
		case '%':
			put(o, "%", 1);
			break;
		case '\0':
			/* A lone '%' at the end: copied, as glibc does. */
			put(o, "%", 1);
			f--;
			break;
		default:
			/* An unknown conversion is copied as it stands. */
			put(o, "%", 1);
			put(o, f, 1);
			break;
		}
	}
	return o->n;
}

/*
 * Returns the number of bytes written, the NUL not counted; 0 (with the buffer's contents
 * unspecified) when the result and its NUL do not fit in max bytes.
 */
size_t
strftime(char *restrict s, size_t max, const char *restrict format, const struct tm *restrict tm)
{
	struct out o = { s, max, 0 };

	fmt(&o, format, tm);
	if (o.n >= max)
		return 0;
	s[o.n] = '\0';
	return o.n;
}

char *
asctime_r(const struct tm *restrict tm, char *restrict buf)
{
	static const char wd[] = "SunMonTueWedThuFriSat", mn[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	int w = tm->tm_wday >= 0 && tm->tm_wday < 7 ? tm->tm_wday : 0;
	int m = tm->tm_mon >= 0 && tm->tm_mon < 12 ? tm->tm_mon : 0;

	/* C99 7.23.3.1's format; 26 bytes for every year of four digits. */
	snprintf(buf, 26, "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n", wd + 3 * w, mn + 3 * m, tm->tm_mday, tm->tm_hour,
	    tm->tm_min, tm->tm_sec, 1900 + tm->tm_year);
	return buf;
}

char *
asctime(const struct tm *tm)
{
	static char buf[26];

	return asctime_r(tm, buf);
}

char *
ctime_r(const time_t *t, char *buf)
{
	struct tm tm;

	if (localtime_r(t, &tm) == NULL)
		return NULL;
	return asctime_r(&tm, buf);
}

char *
ctime(const time_t *t)
{
	static char buf[26];

	return ctime_r(t, buf);
}
