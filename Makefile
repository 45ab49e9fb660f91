# isekit: the two commands of the quick start are `make demo` and `make test`.
# CMake does the real build; this file installs what is missing and drives it.

BUILD      ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=

.PHONY: all deps build demo test bench callgrind fuzz sanitize clean

all: build

deps:
	@./scripts/deps.sh

$(BUILD)/CMakeCache.txt: | deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS) >/dev/null

build: deps $(BUILD)/CMakeCache.txt
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@./scripts/demo.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	@./scripts/bench.sh $(BUILD)

# Host instructions per simulated instruction or clock (valgrind): the machine-independent
# measure to compare engine changes by.
callgrind: build
	@./scripts/callgrind.sh $(BUILD)

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize:
	@$(MAKE) --no-print-directory test BUILD=build-san BUILD_TYPE=Debug \
	    CMAKE_ARGS="-DISEKIT_SANITIZE=ON"

fuzz:
	@./scripts/fuzz.sh

clean:
	rm -rf $(BUILD) build-san build-fuzz
