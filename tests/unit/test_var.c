/* FICS variables and the configuration file: parsing, limits, defaults. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "limit.h"
#include "var.h"

static void test_lookup(void **state)
{
	(void)state;
	assert_int_equal(var_find("shout", false), VAR_SHOUT);
	assert_int_equal(var_find("SHOUT", false), VAR_SHOUT);
	assert_int_equal(var_find("sty", false), VAR_STYLE);	/* unique prefix */
	assert_int_equal(var_find("s", false), -2);		/* shout, style, seek... */
	assert_int_equal(var_find("nosuch", false), -1);
	assert_int_equal(var_find("ms", true), IVAR_MS);
	assert_int_equal(var_find("ms", false), -1);		/* ivars are separate */
	assert_int_equal(var_find("seekremove", true), IVAR_SEEKREMOVE);
	assert_int_equal(var_find("seekremove", false), VAR_SEEKREMOVE_SET);
	assert_int_equal(var_find("", false), -1);
}

static void test_defaults_and_set(void **state)
{
	struct var_values v;
	char why[128], buf[32];

	(void)state;
	var_values_init(&v);
	assert_int_equal(var_num(&v, VAR_STYLE), 1);	/* FICS: people on telnet get boards */
	assert_int_equal(var_num(&v, VAR_WIDTH), 79);
	assert_int_equal(var_num(&v, VAR_SHOUT), 1);
	assert_int_equal(var_num(&v, IVAR_MS), 0);
	assert_string_equal(var_values_text(&v, VAR_PROMOTE, buf, sizeof buf), "q");
	assert_string_equal(var_values_text(&v, VAR_LANG, buf, sizeof buf), "English");

	static const struct {
		enum var_id id;
		const char *text;
		int ok;
		const char *shown;
	} rows[] = {
		{ VAR_SHOUT, "0", 1, "0" }, { VAR_SHOUT, "on", 1, "1" }, { VAR_SHOUT, "off", 1, "0" },
		{ VAR_SHOUT, "maybe", 0, "0" }, { VAR_STYLE, "1", 1, "1" }, { VAR_STYLE, "13", 0, "1" },
		{ VAR_STYLE, "0", 0, "1" }, { VAR_STYLE, "12x", 0, "1" }, { VAR_WIDTH, "240", 1, "240" },
		{ VAR_WIDTH, "241", 0, "240" }, { VAR_PROMOTE, "N", 1, "n" }, { VAR_PROMOTE, "k", 0, "n" },
		{ VAR_LANG, "spanish", 1, "Spanish" }, { VAR_LANG, "Klingon", 0, "Spanish" },
		{ VAR_INTERFACE, "xboard 4.9", 1, "xboard 4.9" }, { IVAR_MS, "1", 1, "1" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int rc = var_values_set(&v, rows[i].id, rows[i].text, why, sizeof why);
		if ((rc == 0) != rows[i].ok)
			fail_msg("row %zu: set %s=%s gave %d (%s)", i, var_def(rows[i].id)->name,
			    rows[i].text, rc, why);
		assert_string_equal(var_values_text(&v, rows[i].id, buf, sizeof buf), rows[i].shown);
	}
	char long_text[VAR_STRING_MAX + 2];
	memset(long_text, 'x', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	assert_int_equal(var_values_set(&v, VAR_FORMULA, long_text, why, sizeof why), -1);
	assert_non_null(strstr(why, "too long"));
	var_values_free(&v);
}

static char *write_temp(const char *text)
{
	static char path[64];
	strcpy(path, "/tmp/chessd-config-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_config(void **state)
{
	struct config c;
	char err[256];

	(void)state;
	config_defaults(&c);
	assert_int_equal(c.port, 5000);
	assert_int_equal(c.tls_port, 5001);
	assert_string_equal(c.data_dir, "./chessd-data");
	assert_int_equal(c.limits.line_bytes, LIMIT_LINE_BYTES);
	assert_int_equal(c.limits.login_ms, LIMIT_LOGIN_MS);
	assert_int_equal(c.limits.output_total_bytes, LIMIT_OUTPUT_TOTAL_BYTES);
	assert_int_equal(c.limits.unwinnable_nodes, LIMIT_UNWINNABLE_NODES);
	assert_true(c.registration_open);

	char *path = write_temp("# comment\n\nport = 6000\n  line_bytes=64 \nregistration = closed\n"
	    "server_name = Club Server\n");
	assert_int_equal(config_load(&c, path, err, sizeof err), 0);
	unlink(path);
	assert_int_equal(c.port, 6000);
	assert_int_equal(c.limits.line_bytes, 64);
	assert_false(c.registration_open);
	assert_string_equal(c.server_name, "Club Server");

	static const struct {
		const char *text, *error;
	} bad[] = {
		{ "port = 70000\n", ":1: port must be a whole number from 0 to 65535" },
		{ "\nline_bytes = 8\n", ":2: line_bytes must be a whole number from 16 to 65536" },
		{ "port = 4294967296\n", ":1: port must be a whole number from 0 to 65535" },
		{ "port = 99999999999999999999\n", ":1: port must be a whole number from 0 to 65535" },
		{ "port = 50x\n", ":1: port must be a whole number from 0 to 65535" },
		{ "unwinnable_nodes = 0\n",
		  ":1: unwinnable_nodes must be a whole number from 1 to 10000000" },
		{ "colour = blue\n", ":1: unknown setting 'colour'" },
		{ "port 5000\n", ":1: expected key = value" },
		{ "registration = maybe\n", ":1: registration must be open or closed" },
		{ "output_soft_bytes = 9000\noutput_hard_bytes = 4096\n",
		    "output_soft_bytes exceeds output_hard_bytes" },
		{ "output_total_bytes = 100\n",
		    ":1: output_total_bytes must be a whole number from 1024 to 2147483647" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct config d;
		config_defaults(&d);
		path = write_temp(bad[i].text);
		assert_int_equal(config_load(&d, path, err, sizeof err), -1);
		unlink(path);
		if (!strstr(err, bad[i].error))
			fail_msg("case %zu: got \"%s\", expected \"%s\"", i, err, bad[i].error);
		config_free(&d);
	}
	assert_int_equal(config_load(&c, "/nonexistent/chessd.conf", err, sizeof err), -1);
	assert_non_null(strstr(err, "No such file"));
	config_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_defaults_and_set),
		cmocka_unit_test(test_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
