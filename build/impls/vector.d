build/impls/vector.o: impls/vector.c impls/ecs.h impls/family.h
impls/ecs.h:
impls/family.h:
