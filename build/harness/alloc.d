build/harness/alloc.o: harness/alloc.c harness/alloc.h \
 harness/../impls/ecs.h
harness/alloc.h:
harness/../impls/ecs.h:
