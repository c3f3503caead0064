/*
 * textgen: writes a deterministic English-like text of exactly N bytes to stdout.
 *
 *   textgen [nbytes [seed]]        default 1000000 bytes, seed 1
 *
 * The text is sentences built from a fixed vocabulary by a small grammar, wrapped at 72 columns,
 * with a blank line between paragraphs. Every choice comes from this file's own 32-bit linear
 * congruential generator (never rand()), so the output is the same byte for byte on every target.
 * The last byte written is always a newline.
 *
 * The vocabulary contains neither "zebra" nor "quux" (nor any word with a 'z' or a 'q' followed by
 * "uu"): the egrep workload searches this text for patterns such as 'zebra.*quux' that must not
 * occur.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_WIDTH 72

static unsigned int lcg_state;

/* x' = 1664525 x + 1013904223 (mod 2^32); the low bits of such a generator are weak, so callers
 * only ever see the high 16 bits. */
static unsigned int next16(void)
{
	lcg_state = lcg_state * 1664525u + 1013904223u;
	return lcg_state >> 16;
}

/* Uniform-ish choice in [0, n) for n <= 65536, without division. */
static unsigned int pick(unsigned int n)
{
	return (next16() * n) >> 16;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const determiners[] = {
	"the", "a", "this", "that", "every", "some", "no", "each", "one", "another", "my", "our",
	"their", "his", "her", "its", "any",
};

static const char *const plural_determiners[] = {
	"the", "some", "many", "few", "these", "those", "all", "several", "most", "two", "three",
	"our", "their",
};

static const char *const adjectives[] = {
	"old", "new", "small", "large", "quick", "slow", "bright", "dark", "quiet", "loud", "cold",
	"warm", "green", "red", "blue", "yellow", "grey", "brown", "white", "black", "heavy", "light",
	"narrow", "wide", "early", "late", "young", "ancient", "simple", "strange", "careful",
	"patient", "hungry", "tired", "busy", "gentle", "proud", "honest", "clever", "foolish",
	"distant", "nearby", "hidden", "open", "empty", "full", "rough", "smooth", "sharp", "dull",
	"wooden", "golden", "silver", "stony", "sandy", "muddy", "frozen", "sunny", "windy", "rainy",
	"famous", "common", "rare", "useful", "fragile", "steady", "restless", "silent", "curious",
	"ordinary", "northern", "southern", "eastern", "western", "little", "great", "short", "tall",
};

static const char *const nouns[] = {
	"river", "mountain", "village", "city", "garden", "forest", "road", "bridge", "house",
	"window", "door", "table", "chair", "book", "letter", "word", "story", "song", "voice",
	"machine", "engine", "wheel", "clock", "lamp", "candle", "fire", "stone", "tree", "flower",
	"field", "harbour", "ship", "boat", "island", "valley", "hill", "lake", "sea", "shore",
	"cloud", "storm", "wind", "rain", "snow", "morning", "evening", "night", "day", "year",
	"winter", "summer", "autumn", "spring", "farmer", "teacher", "student", "doctor", "sailor",
	"merchant", "miller", "baker", "painter", "writer", "king", "queen", "child", "friend",
	"neighbour", "stranger", "traveller", "horse", "dog", "cat", "bird", "fox", "wolf", "bear",
	"sheep", "goat", "owl", "crow", "fish", "market", "church", "tower", "castle", "wall",
	"gate", "path", "corner", "kitchen", "cellar", "attic", "library", "school", "office",
	"program", "computer", "memory", "processor", "register", "cache", "buffer", "kernel",
	"process", "signal", "file", "disk", "network", "message", "packet", "trace", "record",
	"number", "answer", "question", "problem", "reason", "idea", "plan", "rule", "law", "price",
};

static const char *const plural_nouns[] = {
	"rivers", "mountains", "villages", "cities", "gardens", "forests", "roads", "bridges",
	"houses", "windows", "doors", "tables", "books", "letters", "words", "stories", "songs",
	"machines", "engines", "wheels", "clocks", "lamps", "stones", "trees", "flowers", "fields",
	"ships", "boats", "islands", "hills", "clouds", "storms", "farmers", "teachers", "students",
	"sailors", "merchants", "children", "friends", "neighbours", "strangers", "horses", "dogs",
	"cats", "birds", "foxes", "wolves", "sheep", "owls", "fish", "towers", "walls", "paths",
	"programs", "computers", "processors", "registers", "processes", "signals", "files",
	"disks", "messages", "packets", "traces", "records", "numbers", "answers", "questions",
	"problems", "ideas", "plans", "rules", "years", "days", "nights",
};

static const char *const verbs_past[] = {
	"saw", "found", "followed", "crossed", "built", "opened", "closed", "carried", "watched",
	"heard", "remembered", "forgot", "wrote", "read", "painted", "sold", "bought", "kept",
	"lost", "left", "reached", "visited", "passed", "moved", "lifted", "pushed", "pulled",
	"touched", "counted", "measured", "copied", "traced", "stored", "loaded", "sent", "received",
	"broke", "mended", "cleaned", "covered", "described", "explained", "answered", "asked",
	"called", "named", "praised", "feared", "loved", "helped", "guarded", "chased", "caught",
};

static const char *const verbs_intrans[] = {
	"waited", "slept", "laughed", "wandered", "rested", "listened", "worked", "sang", "danced",
	"stopped", "returned", "arrived", "departed", "fell", "rose", "shone", "burned", "trembled",
	"whispered", "shouted", "smiled", "wept", "hurried", "lingered", "vanished", "appeared",
	"grew", "changed", "failed", "succeeded", "halted", "continued", "began", "ended",
};

static const char *const adverbs[] = {
	"slowly", "quickly", "quietly", "carefully", "suddenly", "gently", "often", "rarely",
	"always", "never", "again", "together", "alone", "early", "late", "soon", "once", "twice",
	"happily", "sadly", "calmly", "eagerly", "barely", "nearly", "simply", "clearly", "boldly",
};

static const char *const prepositions[] = {
	"over", "under", "across", "through", "behind", "beside", "near", "beyond", "along",
	"around", "into", "toward", "past", "above", "below", "between", "within", "without",
	"after", "before", "during", "from", "upon", "against",
};

static const char *const conjunctions[] = {
	"and", "but", "while", "because", "although", "so", "until", "when", "after", "before",
	"since", "unless", "whereas", "and then", "yet",
};

static const char *const openers[] = {
	"Then", "Later", "Meanwhile", "At first", "In the end", "Once", "Afterwards", "Still",
	"Of course", "Perhaps", "Indeed", "By morning", "That night", "For a while", "Suddenly",
	"Long ago", "In time", "Even so", "At last", "Soon",
};

static const char *const names[] = {
	"Anna", "Bruno", "Clara", "Daniel", "Elena", "Felix", "Greta", "Hugo", "Irene", "Jonas",
	"Karin", "Lukas", "Marta", "Niels", "Olga", "Peter", "Rosa", "Simon", "Tilda", "Victor",
	"Walter", "Yvonne",
};

/* ---- output: a word buffer, line wrapping, and exactly nbytes total ---- */

static char *outbuf;
static unsigned long outcap, outlen;
static unsigned long remaining;         /* bytes still to write to stdout */

static char line[LINE_WIDTH + 64];
static int linelen;

static void flush_out(void)
{
	if (outlen && fwrite(outbuf, 1, outlen, stdout) != outlen) {
		perror("textgen: write");
		exit(1);
	}
	outlen = 0;
}

/* Emits raw bytes, stopping for good once nbytes have been produced. */
static void emit(const char *s, unsigned long n)
{
	if (n > remaining)
		n = remaining;
	remaining -= n;
	while (n) {
		unsigned long k = outcap - outlen;
		if (k > n)
			k = n;
		memcpy(outbuf + outlen, s, k);
		outlen += k;
		s += k;
		n -= k;
		if (outlen == outcap)
			flush_out();
	}
}

static void end_line(void)
{
	line[linelen++] = '\n';
	emit(line, linelen);
	linelen = 0;
}

/* Appends a word (and the separator before it) to the current line, wrapping as needed. */
static int capitalise_next = 1;

static void word(const char *w)
{
	int n = (int)strlen(w);
	if (linelen > 0 && linelen + 1 + n > LINE_WIDTH)
		end_line();
	if (linelen > 0)
		line[linelen++] = ' ';
	memcpy(line + linelen, w, n);
	if (capitalise_next && line[linelen] >= 'a' && line[linelen] <= 'z')
		line[linelen] = (char)(line[linelen] - 'a' + 'A');
	capitalise_next = 0;
	linelen += n;
}

/* Punctuation attaches to the previous word (no space before it), so it may run one column past
 * LINE_WIDTH; the line buffer has room for that. */
static void punct(char c)
{
	line[linelen++] = c;
}

#define ONE_OF(a) ((a)[pick(COUNT(a))])

static void number_word(void)
{
	char buf[16];
	unsigned int v;
	int i = 0, j;
	char tmp[16];
	switch (pick(3)) {
	case 0: v = 1 + pick(100); break;
	case 1: v = 1700 + pick(330); break;
	default: v = pick(60000); break;
	}
	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (j = 0; j < i; j++)
		buf[j] = tmp[i - 1 - j];
	buf[i] = '\0';
	word(buf);
}

static void noun_phrase(int allow_pp);

static void prep_phrase(void)
{
	word(ONE_OF(prepositions));
	noun_phrase(0);
}

static void noun_phrase(int allow_pp)
{
	unsigned int r = pick(16);
	if (r < 2) {
		word(ONE_OF(names));
	} else if (r < 6) {
		word(ONE_OF(plural_determiners));
		if (pick(2))
			word(ONE_OF(adjectives));
		word(ONE_OF(plural_nouns));
	} else if (r == 6) {
		number_word();
		word(ONE_OF(plural_nouns));
	} else {
		word(ONE_OF(determiners));
		if (pick(3) == 0)
			word(ONE_OF(adjectives));
		if (pick(6) == 0)
			word(ONE_OF(adjectives));
		word(ONE_OF(nouns));
	}
	if (allow_pp && pick(4) == 0)
		prep_phrase();
}

static void clause(void)
{
	noun_phrase(1);
	if (pick(5) == 0)
		word(ONE_OF(adverbs));
	if (pick(3) == 0) {
		word(ONE_OF(verbs_intrans));
		if (pick(2))
			prep_phrase();
	} else {
		word(ONE_OF(verbs_past));
		noun_phrase(1);
	}
	if (pick(6) == 0)
		word(ONE_OF(adverbs));
}

static void sentence(void)
{
	unsigned int r;
	capitalise_next = 1;
	if (pick(5) == 0) {
		word(ONE_OF(openers));
		punct(',');
	}
	clause();
	r = pick(8);
	if (r < 2) {
		punct(',');
		word(ONE_OF(conjunctions));
		clause();
	} else if (r == 2) {
		punct(';');
		clause();
	}
	r = pick(20);
	punct(r == 0 ? '?' : r == 1 ? '!' : '.');
}

int main(int argc, char **argv)
{
	unsigned long nbytes = 1000000;
	char *end;
	if (argc > 3) {
		fprintf(stderr, "usage: textgen [nbytes [seed]]\n");
		return 2;
	}
	if (argc > 1) {
		nbytes = strtoul(argv[1], &end, 10);
		if (*argv[1] == '\0' || *end != '\0') {
			fprintf(stderr, "textgen: bad byte count '%s'\n", argv[1]);
			return 2;
		}
	}
	lcg_state = 1;
	if (argc > 2) {
		lcg_state = (unsigned int)strtoul(argv[2], &end, 10);
		if (*argv[2] == '\0' || *end != '\0') {
			fprintf(stderr, "textgen: bad seed '%s'\n", argv[2]);
			return 2;
		}
	}
	outcap = 65536;
	outbuf = malloc(outcap);
	if (!outbuf) {
		fprintf(stderr, "textgen: out of memory\n");
		return 1;
	}
	if (nbytes == 0)
		return 0;
	remaining = nbytes - 1;                 /* the final byte is the closing newline */
	while (remaining) {
		int sentences = 2 + (int)pick(7);
		while (sentences-- && remaining)
			sentence();
		if (linelen)
			end_line();
		emit("\n", 1);                  /* blank line between paragraphs */
	}
	flush_out();
	if (fwrite("\n", 1, 1, stdout) != 1 || fflush(stdout) != 0) {
		perror("textgen: write");
		return 1;
	}
	return 0;
}
