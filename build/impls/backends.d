build/impls/backends.o: impls/backends.c impls/ecs.h
impls/ecs.h:
