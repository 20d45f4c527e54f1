//! The binary's global allocator (binary only): mimalloc for ordinary blocks, the kernel's page
//! mappings for large ones (issue 44, peak memory; docs/src/benchmarks.md, "Inputs we did not
//! pick").
//!
//! mimalloc keeps the suite writers' pool threads from contending for one arena lock
//! (docs/src/design/scaling.md), but it keeps freed pages resident for a while (its purge
//! delay), and a vector that grows by doubling leaves every smaller copy behind: the model's
//! tables, the parser's buffers and the identifiers' structures each peaked a phase's worth
//! above the previous main, whose glibc allocator maps large blocks on their own. Here a block
//! of at least `LARGE` bytes is its own anonymous mapping: freeing it unmaps it at once, and
//! growing it is `mremap`, which moves pages instead of copying them. Large blocks are few (one
//! per table or buffer, not one per word), so the system calls cost nothing measurable, unlike
//! purging every freed page (`MIMALLOC_PURGE_DELAY=0`, 1.5x the CPU time on ESM E=1).
//!
//! Which allocator owns a block follows from its layout alone (size and alignment), which every
//! `dealloc` and `realloc` is given, so no block is ever returned to the wrong one.

use std::alloc::{GlobalAlloc, Layout};

/// Blocks of at least this many bytes (with an alignment a page satisfies) are mapped on their
/// own.
#[cfg(target_os = "linux")]
const LARGE: usize = 256 << 10;

/// mimalloc below `LARGE` bytes, page mappings from it (Linux; mimalloc alone elsewhere).
pub struct Allocator;

#[cfg(target_os = "linux")]
fn is_large(size: usize, align: usize) -> bool {
    size >= LARGE && align <= 4096
}

#[cfg(target_os = "linux")]
mod pages {
    /// A fresh zeroed mapping of `size` bytes, or null.
    pub unsafe fn map(size: usize) -> *mut u8 {
        // SAFETY: an anonymous private mapping at an address the kernel chooses touches no
        // existing memory.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            std::ptr::null_mut()
        } else {
            p.cast()
        }
    }

    /// Unmaps a block `map` or `remap` returned with this size.
    pub unsafe fn unmap(ptr: *mut u8, size: usize) {
        // SAFETY: the caller passes a whole mapping of ours; the kernel rounds the length up
        // to pages as it did when mapping.
        unsafe {
            libc::munmap(ptr.cast(), size);
        }
    }

    /// The mapping at `ptr` resized from `old` to `new` bytes, moved if need be, or null (the
    /// old mapping then stays as it was).
    pub unsafe fn remap(ptr: *mut u8, old: usize, new: usize) -> *mut u8 {
        // SAFETY: `ptr` and `old` describe a whole mapping of ours.
        let p = unsafe { libc::mremap(ptr.cast(), old, new, libc::MREMAP_MAYMOVE) };
        if p == libc::MAP_FAILED {
            std::ptr::null_mut()
        } else {
            p.cast()
        }
    }
}

// SAFETY: every block comes from mimalloc or from `pages`, chosen by `is_large` of its layout,
// and goes back to the same one: `dealloc` and `realloc` receive the layout the block was made
// with, and a `realloc` that crosses `LARGE` copies into a block of the other kind.
#[cfg(target_os = "linux")]
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if is_large(layout.size(), layout.align()) {
            // SAFETY: a nonzero size.
            unsafe { pages::map(layout.size()) }
        } else {
            // SAFETY: forwarded with the caller's layout.
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if is_large(layout.size(), layout.align()) {
            // SAFETY: anonymous mappings are zeroed.
            unsafe { pages::map(layout.size()) }
        } else {
            // SAFETY: forwarded with the caller's layout.
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if is_large(layout.size(), layout.align()) {
            // SAFETY: a large layout's block is a mapping of this size.
            unsafe { pages::unmap(ptr, layout.size()) }
        } else {
            // SAFETY: a small layout's block came from mimalloc.
            unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let (was, will) = (
            is_large(layout.size(), layout.align()),
            is_large(new_size, layout.align()),
        );
        match (was, will) {
            // SAFETY: a large block is a mapping of `layout.size()` bytes.
            (true, true) => unsafe { pages::remap(ptr, layout.size(), new_size) },
            // SAFETY: a small block came from mimalloc.
            (false, false) => unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) },
            _ => {
                // SAFETY: the new layout is valid: same alignment, a size the caller vouches
                // for.
                let new_layout =
                    unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
                // SAFETY: allocated, copied and freed through this allocator's own paths.
                unsafe {
                    let new = self.alloc(new_layout);
                    if !new.is_null() {
                        std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    new
                }
            }
        }
    }
}

// SAFETY: forwards every call to mimalloc.
#[cfg(not(target_os = "linux"))]
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded.
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded.
        unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded.
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }
}

// mimalloc's option interface (`mimalloc.h`), in the library the `mimalloc` crate links.
unsafe extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    #[cfg(test)]
    fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
}

/// `mi_option_purge_delay` in `mimalloc.h`'s `mi_option_t` (the same position in mimalloc v2
/// and v3): the milliseconds a freed page stays resident before it is returned to the system.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// The purge delay set unless `MIMALLOC_PURGE_DELAY` gives one, in milliseconds.
///
/// mimalloc v3's default is 1,000 ms, so a phase's freed pages were still resident when the
/// next phase allocated: on the rows of `scripts/peak_rss` (docs/src/benchmarks.md, issue 44),
/// the 50,000-state machine peaked at 38-40 MiB with it, 36 with 10 ms, 35 with 5 ms (the
/// previous main 36.7); ESM `hads` E=1 at 37-40, 31 and 30 MiB, with 0.1 s more system time at
/// 5 ms (0 ms: 1 s more, every freed page returned at once).
const PURGE_DELAY_MS: std::ffi::c_long = 5;

/// Turns off transparent huge pages for the process, as `MIMALLOC_ALLOW_THP=0` would (mimalloc
/// reads that option before `main`): its arenas ask for huge pages, so touching a few bytes made
/// 2 MiB resident (`info` on ESM peaked at 75 MiB with them, 59 MiB without). Shortens the
/// delay before freed pages go back to the system to [`PURGE_DELAY_MS`] unless the environment
/// sets one.
pub fn configure() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes one integer argument and changes only this process's
    // huge-page policy; a failure (old kernels) leaves the default.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's options, which it reads whenever it schedules a purge.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) }
    }
}

#[cfg(test)]
mod tests {
    /// `configure` sets mimalloc's purge delay (the option it reads from
    /// `MIMALLOC_PURGE_DELAY`, which the test environment leaves unset) to `PURGE_DELAY_MS`.
    #[test]
    fn configure_shortens_the_purge_delay() {
        assert!(std::env::var_os("MIMALLOC_PURGE_DELAY").is_none());
        super::configure();
        // SAFETY: reads one of mimalloc's options.
        let delay = unsafe { super::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert_eq!(delay, super::PURGE_DELAY_MS);
    }

    /// A vector grown from a small block across `LARGE` into a mapping, grown again
    /// (`mremap`) and shrunk back below it keeps its contents at every step (the test binary
    /// runs on this allocator).
    #[test]
    fn blocks_keep_their_bytes_across_the_large_boundary() {
        let mut v: Vec<u32> = Vec::new();
        for k in 0..(1u32 << 20) {
            v.push(k.wrapping_mul(2_654_435_761));
        }
        let check = |v: &[u32]| {
            v.iter()
                .enumerate()
                .all(|(k, &x)| x == (k as u32).wrapping_mul(2_654_435_761))
        };
        assert!(check(&v));
        v.truncate(1000);
        v.shrink_to_fit();
        assert!(check(&v));
        let zeroed = vec![0u64; 1 << 17];
        assert!(zeroed.iter().all(|&x| x == 0));
    }
}
