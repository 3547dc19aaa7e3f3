/* The --help that parse-options.h's tables generate (usage, description, sections, the aligned
 * option list, epilog), and the table the shell completion is generated from. */
#include <stdlib.h>
#include <string.h>

#include "cli/parse-options.h"

/* --- --help ------------------------------------------------------------------------------ */

/* "-m, --method METHOD" */
static void help_left(const struct opt *o, char *buf, size_t len)
{
	char value[256] = "";
	if (o->kind == OPT_KIND_CHOICE && !o->argh && o->choices) {
		size_t w = 0;
		for (int i = 0; o->choices[i] && w < sizeof(value); i++)
			w += (size_t)snprintf(value + w, sizeof(value) - w, "%s%s", i ? "|" : "", o->choices[i]);
	} else if (opt_takes_value(o)) {
		snprintf(value, sizeof(value), "%s", o->argh ? o->argh : "VALUE");
	}
	size_t w = 0;
	if (o->short_name)
		w += (size_t)snprintf(buf + w, len - w, "-%c%s", o->short_name, o->long_name ? ", " : "");
	if (o->long_name && w < len)
		w += (size_t)snprintf(buf + w, len - w, "--%s", o->long_name);
	if (*value && w < len)
		snprintf(buf + w, len - w, (o->flags & OPT_F_OPTARG) ? "[=%s]" : " %s", value);
}

#define HELP_MAX_LEFT 28

void opt_help_print(FILE *out, const struct opt_cmd *cmd, const struct opt *opts)
{
	for (int k = 0; cmd->usage && cmd->usage[k]; k++)
		fprintf(out, "%s%s\n", k ? "       " : "usage: ", cmd->usage[k]);
	if (cmd->description)
		fprintf(out, "\n%s", cmd->description);
	for (const struct opt_section *s = cmd->sections; s && s->title; s++) {
		fprintf(out, "\n%s:\n", s->title);
		if (s->text)
			fputs(s->text, out);
		if (s->print)
			s->print(out);
	}
	int width = 0;
	char left[320];
	for (const struct opt *o = opts; o->kind != OPT_KIND_END; o++) {
		if (o->kind == OPT_KIND_GROUP || !o->help)
			continue;
		help_left(o, left, sizeof(left));
		/* a longer one goes on a line of its own, its help under the others' */
		if ((int)strlen(left) > width && strlen(left) <= HELP_MAX_LEFT)
			width = (int)strlen(left);
	}
	fputs("\noptions:\n", out);
	for (const struct opt *o = opts; o->kind != OPT_KIND_END; o++) {
		if (o->kind == OPT_KIND_GROUP) {
			fprintf(out, "\n%s:\n", o->help);
			continue;
		}
		if (!o->help)
			continue;
		help_left(o, left, sizeof(left));
		const char *h = o->help;
		if ((int)strlen(left) > width)
			fprintf(out, "  %s\n%*s", left, width + 4, "");
		else
			fprintf(out, "  %-*s  ", width, left);
		/* help lines after the first start under the first */
		for (;;) {
			const char *nl = strchr(h, '\n');
			int n = nl ? (int)(nl - h) : (int)strlen(h);
			fprintf(out, "%.*s\n", n, h);
			if (!nl || !nl[1])
				break;
			h = nl + 1;
			fprintf(out, "%*s", width + 4, "");
		}
	}
	if (cmd->epilog)
		fprintf(out, "\n%s", cmd->epilog);
}

/* --- the table for the shell completion ------------------------------------------------- */

void opt_completion_print(FILE *out, const struct opt_cmd *cmd, const struct opt *opts)
{
	for (int k = 0; cmd->usage && cmd->usage[k]; k++) {
		/* a usage line continued on the next (numa load's) is one line here */
		fputs("usage\t", out);
		for (const char *p = cmd->usage[k]; *p; p++)
			fputc(*p == '\n' || *p == '\t' ? ' ' : *p, out);
		fputc('\n', out);
	}
	for (const struct opt *o = opts; o->kind != OPT_KIND_END; o++) {
		if (o->kind == OPT_KIND_GROUP || !o->help)
			continue;
		const char *kind = o->kind == OPT_KIND_PAIR ? "pair" : opt_takes_value(o) ? "value" : "flag";
		char s[3] = { '-', o->short_name, '\0' };
		fprintf(out, "option\t%s\t%s%s\t%s\t%s\t", o->short_name ? s : "", o->long_name ? "--" : "",
			o->long_name ? o->long_name : "", kind, o->argh && opt_takes_value(o) ? o->argh : "");
		/* a STRING option's choices are suggestions for completion only (bench --level: any level
		 * the probe finds, commonly these) */
		for (int i = 0;
		     o->choices && (o->kind == OPT_KIND_CHOICE || o->kind == OPT_KIND_CHOICE_SET || o->kind == OPT_KIND_STRING) &&
		     o->choices[i];
		     i++)
			fprintf(out, "%s%s", i ? " " : "", o->choices[i]);
		fputc('\n', out);
	}
	if (cmd->words) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (m) {
			cmd->words(m);
			fclose(m);
			for (char *line = buf, *next; line && *line; line = next) {
				next = strchr(line, '\n');
				if (next)
					*next++ = '\0';
				if (*line)
					fprintf(out, "word\t%s\n", line);
			}
			free(buf);
		}
	}
}
