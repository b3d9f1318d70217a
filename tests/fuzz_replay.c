/*
 * fuzz_replay.c: runs the fuzz target (tests/fuzz.c) once on each file named on the command
 * line, without libFuzzer, so that `make test` replays the committed corpus with gcc and the
 * sanitizers. The corpus counts as one test; a failing input aborts in the target, which
 * tests/run.sh counts as a failure. Ends with "N passed, N failed".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	unsigned replayed = 0, failed = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			printf("FAIL fuzz-replay: cannot open %s\n", argv[i]);
			failed++;
			continue;
		}
		static uint8_t buf[1 << 20];
		size_t n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		replayed++;
	}
	printf("note fuzz-replay: %u inputs replayed on every backend\n", replayed);
	printf("%u passed, %u failed\n", failed ? 0 : 1, failed ? 1 : 0);
	return failed != 0;
}
