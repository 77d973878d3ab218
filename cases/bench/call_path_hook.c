/* The hook of cases/bench/call_path.sh: compiled into a build made with
 * -finstrument-functions, it writes each distinct call (caller, callee) the
 * first time any thread makes it, in the order they happen, to the file named
 * by TESSEL_CALL_PATH. Only first calls are kept, so a search of millions of
 * calls leaves a few thousand lines: the path of the search through the code,
 * not its loops. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NO_TRACE __attribute__((no_instrument_function))
#define TABLE (1u << 20)

static uintptr_t seen_from[TABLE], seen_to[TABLE];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE* out;
static int opened;

NO_TRACE static void open_output(void) {
  const char* path = getenv("TESSEL_CALL_PATH");
  out = path ? fopen(path, "w") : NULL;
  opened = 1;
}

NO_TRACE void __cyg_profile_func_enter(void* callee, void* caller) {
  uintptr_t to = (uintptr_t)callee, from = (uintptr_t)caller;
  /* caller is a return address inside the calling function: the analysis
   * maps it to that function's file. */
  uint32_t slot = (uint32_t)((to * 0x9E3779B97F4A7C15ull) ^ (from * 0xC2B2AE3D27D4EB4Full)) >> 12 & (TABLE - 1);
  pthread_mutex_lock(&lock);
  if (!opened) open_output();
  while (seen_to[slot] && !(seen_to[slot] == to && seen_from[slot] == from)) slot = (slot + 1) & (TABLE - 1);
  if (!seen_to[slot]) {
    seen_to[slot] = to;
    seen_from[slot] = from;
    if (out) {
      /* offsets in the executable, so that addr2line can read them (a
       * caller outside it, such as std::thread's trampoline, is "-") */
      Dl_info from_info, to_info;
      const int from_ok = dladdr((void*)from, &from_info), to_ok = dladdr((void*)to, &to_info);
      if (to_ok && from_ok && from_info.dli_fbase == to_info.dli_fbase)
        fprintf(out, "%lx %lx\n", (unsigned long)(from - (uintptr_t)from_info.dli_fbase),
                (unsigned long)(to - (uintptr_t)to_info.dli_fbase));
      else if (to_ok)
        fprintf(out, "- %lx\n", (unsigned long)(to - (uintptr_t)to_info.dli_fbase));
      fflush(out);
    }
  }
  pthread_mutex_unlock(&lock);
}

NO_TRACE void __cyg_profile_func_exit(void* callee, void* caller) {
  (void)callee;
  (void)caller;
}

NO_TRACE __attribute__((destructor)) static void close_output(void) {
  pthread_mutex_lock(&lock);
  if (out) fclose(out);
  out = NULL;
  pthread_mutex_unlock(&lock);
}
