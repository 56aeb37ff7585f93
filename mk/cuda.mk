# The CUDA backend, built only where nvcc exists (HAVE_CUDA=1): the session
# (src/harness/cuda/, plain C against the runtime and CUPTI) and the kernels
# (workloads/**/*.cu). Nothing in `make test` needs a GPU.

ifeq ($(HAVE_CUDA),1)
CUDA_INC := $(CUDA)/include
CUPTI_INC := $(firstword $(wildcard $(CUDA)/extras/CUPTI/include) $(CUDA)/include)
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA)/lib64) $(CUDA)/lib)
CUPTI_LIBDIR := $(firstword $(wildcard $(CUDA)/extras/CUPTI/lib64) $(CUDA_LIBDIR))
NVCC_ARCH ?= -gencode arch=compute_80,code=sm_80 \
	-gencode arch=compute_90,code=sm_90 \
	-gencode arch=compute_90,code=compute_90
NVCCFLAGS ?= -O2 -g

CUDA_SESSION_SRC := $(wildcard src/harness/cuda/*.c)
CUDA_KERNEL_SRC := $(shell find workloads -name '*.cu' 2>/dev/null)
CUDA_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(CUDA_SESSION_SRC)) \
	$(patsubst %.cu,$(BUILD)/%.cu.o,$(CUDA_KERNEL_SRC))
# Never lib/stubs on a runtime path: the stub driver answers every call
# with cudaErrorStubLibrary.
CUDA_LIBS := -L$(CUDA_LIBDIR) -L$(CUPTI_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) \
	-Wl,-rpath,$(CUPTI_LIBDIR) -lcudart -lcupti -ldl -lstdc++

EXTRA_CFLAGS_src/harness/cuda = -I$(CUDA_INC) -I$(CUPTI_INC)

$(BUILD)/%.cu.o: %.cu $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(QUIET_NVCC)$(NVCC) $(NVCCFLAGS) $(NVCC_ARCH) -cudart shared -Isrc/lib \
		-Isrc/harness -Iworkloads -MMD -MP -c -o $@ $<
else
CUDA_OBJ :=
CUDA_LIBS :=
endif
