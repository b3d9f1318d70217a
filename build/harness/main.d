build/harness/main.o: harness/main.c harness/bench.h \
 harness/../impls/ecs.h
harness/bench.h:
harness/../impls/ecs.h:
