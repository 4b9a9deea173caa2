// disarm.c: see disarm.h.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disarm.h"

const char *const clr_disarm_names[] = {"ProfileEnter", "ProfileLeave", "ProfileTailcall"};

enum { PUSH_RBP = 0x55, RET = 0xC3, MATCH_BYTES = 16 };

// The file bytes of the loaded vaddr v, or NULL.
static const uint8_t *file_bytes(const uint8_t *img, size_t size, const Elf64_Ehdr *eh, uint64_t v) {
    for (int i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff + (size_t)i * sizeof(Elf64_Phdr));
        if (ph->p_type == PT_LOAD && v >= ph->p_vaddr && v < ph->p_vaddr + ph->p_filesz) {
            uint64_t off = v - ph->p_vaddr + ph->p_offset;
            return off < size ? img + off : NULL;
        }
    }
    return NULL;
}

static int patch(uint8_t *at) {
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *p = (uint8_t *)((uintptr_t)at & ~(uintptr_t)(page - 1));
    if (mprotect(p, (size_t)page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
        return 0;
    atomic_store_explicit((_Atomic uint8_t *)at, RET, memory_order_release);
    mprotect(p, (size_t)page, PROT_READ | PROT_EXEC);
    return 1;
}

// Patches every name found among the symbols of the mapped image whose
// load bias is bias.
static int patch_named(const uint8_t *img, size_t size, uintptr_t bias, const char *const *names, int n) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    if (eh->e_shoff == 0 || eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
        return -1;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    int done = 0, found = 0;
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
            continue;
        const Elf64_Shdr *str = &sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > size || str->sh_offset + str->sh_size > size || sh[i].sh_entsize != sizeof(Elf64_Sym))
            return -1;
        found = 1;
        const Elf64_Sym *sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
        const char *strs = (const char *)(img + str->sh_offset);
        size_t nsym = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t k = 0; k < nsym; k++) {
            if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || sym[k].st_value == 0 || sym[k].st_name >= str->sh_size)
                continue;
            const char *name = strs + sym[k].st_name;
            size_t room = str->sh_size - sym[k].st_name;
            for (int j = 0; j < n; j++) {
                size_t len = strlen(names[j]);
                if (len >= room || memcmp(name, names[j], len + 1) != 0)
                    continue;
                // The code in memory must be the file's (position-independent
                // code is not relocated), and begin with push %rbp.
                const uint8_t *want = file_bytes(img, size, eh, sym[k].st_value);
                uint8_t *at = (uint8_t *)(bias + sym[k].st_value);
                size_t cmp = sym[k].st_size < MATCH_BYTES ? (size_t)sym[k].st_size : MATCH_BYTES;
                if (want != NULL && cmp > 0 && want + cmp <= img + size && *want == PUSH_RBP && memcmp(at, want, cmp) == 0)
                    done += patch(at);
            }
        }
    }
    return found ? done : -1;
}

static int disarm(const void *anchor, const char *const *names, int n) {
    Dl_info info;
    if (anchor == NULL || dladdr(anchor, &info) == 0 || info.dli_fname == NULL || info.dli_fbase == NULL)
        return -1;
    // The main program's name is argv[0], which may not lead to it from
    // here: its file is /proc/self/exe. A wrong file finds no symbol whose
    // bytes match memory.
    int fd = open(info.dli_fname, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    void *img = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(Elf64_Ehdr))
        img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (img == MAP_FAILED)
        return -1;
    const Elf64_Ehdr *eh = img;
    int rc = -1;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64 && eh->e_machine == EM_X86_64 &&
        (eh->e_type == ET_DYN || eh->e_type == ET_EXEC)) {
        // dladdr's base is where the first loaded segment begins: the load
        // bias is that less the segment's own (page-aligned) address, 0
        // for a shared library's, the address itself for an executable's.
        // The program headers are read here and by file_bytes: checked
        // once, in the file.
        uint64_t first = UINT64_MAX;
        if (eh->e_phentsize == sizeof(Elf64_Phdr) && eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) <= (uint64_t)st.st_size)
            for (int i = 0; i < eh->e_phnum; i++) {
                const Elf64_Phdr *ph = (const Elf64_Phdr *)((const uint8_t *)img + eh->e_phoff + (size_t)i * sizeof(Elf64_Phdr));
                if (ph->p_type == PT_LOAD && ph->p_vaddr < first)
                    first = ph->p_vaddr & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
            }
        if (first != UINT64_MAX)
            rc = patch_named(img, (size_t)st.st_size, (uintptr_t)info.dli_fbase - (uintptr_t)first, names, n);
    }
    munmap(img, (size_t)st.st_size);
    return rc;
}

static _Atomic int g_last = -2;

int clr_disarm_last(void) { return atomic_load_explicit(&g_last, memory_order_relaxed); }

int clr_disarm(const void *anchor, const char *const *names, int n) {
    int rc = disarm(anchor, names, n);
    atomic_store_explicit(&g_last, rc, memory_order_relaxed);
    return rc;
}
