# mbmodal: build, run the bundled deck, test.
#   make            build ./mbmodal
#   make run        install missing Debian packages, build, run decks/ (README command 1)
#   make test       build and run every test; last line "N passed, N failed" (README command 2)
#   make check-layers  the layering rule of HACKING.md (no include of a later layer)
#   make san        the tests once more under AddressSanitizer + UndefinedBehaviorSanitizer
#   make fuzz       run the deck and Matrix Market fuzz targets for a bounded time (60 s each)
#   make fuzz-long  the same for 10 minutes each (make test runs them for 15 s each)

CC       = mpicc
CFLAGS  ?= -O2 -g
override CFLAGS += -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L
LDLIBS   = -lzmumps -ldmumps -lmumps_common -lyaml -llapacke -llapack -lblas -lm
BUILD   ?= build

LIB_SRC  = $(sort $(wildcard src/*.c src/*/*.c))
LIB_SRC := $(filter-out src/main.c,$(LIB_SRC))
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC = $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN = $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BIN      = $(if $(filter build,$(BUILD)),mbmodal,$(BUILD)/mbmodal)

.PHONY: all run test tests san fuzz fuzz-long clean deps check-layers
all: $(BIN)

$(BUILD)/%.o: %.c $(wildcard src/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libmbmodal.a: $(LIB_OBJ)
	ar rcs $@ $^

$(BIN): $(BUILD)/src/main.o $(BUILD)/libmbmodal.a
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/unit/%.c tests/unit/check.h $(BUILD)/libmbmodal.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc $< $(BUILD)/libmbmodal.a $(LDLIBS) -o $@

tests: $(BIN) $(TEST_BIN)

deps:
	sh scripts/install-deps.sh

run: deps
	$(MAKE) all
	./mbmodal decks/beam-grid.yaml

test: tests
	sh tests/run.sh $(BUILD) $(BIN)

check-layers:
	sh scripts/check_layers.sh

san:
	$(MAKE) test BUILD=build-san CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

fuzz:
	sh scripts/fuzz.sh

fuzz-long:
	FUZZ_SECONDS=600 sh scripts/fuzz.sh

clean:
	rm -rf build build-san build-fuzz mbmodal out
