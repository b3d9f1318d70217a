build/impls/tree.o: impls/tree.c impls/ecs.h impls/family.h
impls/ecs.h:
impls/family.h:
