/*
 * png_ink: where a figure has ink, for tests/figure_text.sh, which checks that every figure's
 * text stays inside its canvas and that its title and key cover nothing.
 *
 *   png_ink FILE [X0 Y0 X1 Y1]   prints "W H COUNT X0 Y0 X1 Y1": the canvas, and the pixels
 *                                that are not the background (the top-left pixel's colour; a
 *                                figure's background is white) in the box X0..X1, Y0..Y1
 *                                (default: the whole canvas): how many, and their bounding box
 *                                ("-1 -1 -1 -1" if none)
 *   png_ink --diff A B           the same for the pixels where A and B differ (one size)
 *
 * A pixel is ink where a channel differs by more than 24 of 255: the faint fringe cairo's
 * antialiasing leaves around a line is not. Reads PNG through libpng's simplified API, as RGB.
 * Exit status 0, or 2 (a file that is not a PNG, two sizes).
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct image {
	unsigned w, h;
	unsigned char *rgb;
};

static int image_read(const char *path, struct image *im)
{
	png_image p;
	memset(&p, 0, sizeof p);
	p.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&p, path)) {
		fprintf(stderr, "png_ink: %s: %s\n", path, p.message);
		return -1;
	}
	p.format = PNG_FORMAT_RGB;
	im->w = p.width;
	im->h = p.height;
	im->rgb = malloc(PNG_IMAGE_SIZE(p));
	if (!im->rgb || !png_image_finish_read(&p, NULL, im->rgb, 0, NULL)) {
		fprintf(stderr, "png_ink: %s: %s\n", path, im->rgb ? p.message : "out of memory");
		free(im->rgb);
		png_image_free(&p);
		return -1;
	}
	return 0;
}

static int differs(const unsigned char *a, const unsigned char *b)
{
	for (int c = 0; c < 3; c++)
		if (abs(a[c] - b[c]) > 24)
			return 1;
	return 0;
}

/* Counts and bounds the pixels of box where a differs from b (b NULL: from a's top-left). */
static void ink(const struct image *a, const struct image *b, long box[4])
{
	long n = 0, x0 = -1, y0 = -1, x1 = -1, y1 = -1;
	for (long y = box[1] < 0 ? 0 : box[1]; y <= box[3] && y < (long)a->h; y++)
		for (long x = box[0] < 0 ? 0 : box[0]; x <= box[2] && x < (long)a->w; x++) {
			const unsigned char *p = a->rgb + 3 * ((size_t)y * a->w + (size_t)x);
			const unsigned char *q = b ? b->rgb + 3 * ((size_t)y * a->w + (size_t)x) : a->rgb;
			if (!differs(p, q))
				continue;
			n++;
			if (x0 < 0 || x < x0)
				x0 = x;
			if (x > x1)
				x1 = x;
			if (y0 < 0)
				y0 = y;
			y1 = y;
		}
	printf("%u %u %ld %ld %ld %ld %ld\n", a->w, a->h, n, x0, y0, x1, y1);
}

int main(int argc, char **argv)
{
	struct image a = {0}, b = {0};
	long box[4] = {0, 0, 1L << 30, 1L << 30};
	if (argc == 4 && strcmp(argv[1], "--diff") == 0) {
		if (image_read(argv[2], &a) || image_read(argv[3], &b))
			return 2;
		if (a.w != b.w || a.h != b.h) {
			fprintf(stderr, "png_ink: %s is %ux%u, %s %ux%u\n", argv[2], a.w, a.h, argv[3], b.w, b.h);
			return 2;
		}
		ink(&a, &b, box);
	} else if (argc == 2 || argc == 6) {
		if (image_read(argv[1], &a))
			return 2;
		for (int i = 0; argc == 6 && i < 4; i++)
			box[i] = strtol(argv[2 + i], NULL, 10);
		ink(&a, NULL, box);
	} else {
		fprintf(stderr, "usage: png_ink FILE [X0 Y0 X1 Y1] | png_ink --diff A B\n");
		return 2;
	}
	free(a.rgb);
	free(b.rgb);
	return 0;
}
