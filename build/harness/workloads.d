build/harness/workloads.o: harness/workloads.c harness/alloc.h \
 harness/../impls/ecs.h harness/bench.h
harness/alloc.h:
harness/../impls/ecs.h:
harness/bench.h:
