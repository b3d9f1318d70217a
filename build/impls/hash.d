build/impls/hash.o: impls/hash.c impls/ecs.h impls/family.h
impls/ecs.h:
impls/family.h:
