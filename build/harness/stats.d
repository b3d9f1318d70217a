build/harness/stats.o: harness/stats.c harness/bench.h \
 harness/../impls/ecs.h
harness/bench.h:
harness/../impls/ecs.h:
