//! The UTF-8 check of `read-text` (UTF-8 without NUL bytes), run on each chunk as it is read.
//! Mostly-ASCII text (source code, logs) is checked for both in one vector pass; std's NUL
//! search and UTF-8 validation, a pass each, cost about as much as the read itself.

/// How a whole file's bytes fail to be text, found chunk by chunk.
#[derive(Default)]
pub struct TextCheck {
    /// Bytes known to be whole UTF-8 characters.
    valid: usize,
    /// Bytes searched for a NUL.
    searched: usize,
    nul: Option<usize>,
    invalid: Option<usize>,
}

impl TextCheck {
    /// Check what `data` gained since the last call.
    pub fn advance(&mut self, data: &[u8]) {
        if self.nul.is_none() && self.invalid.is_none() && self.searched == self.valid {
            let plain = plain_ascii_prefix(&data[self.valid..]);
            self.valid += plain;
            self.searched += plain;
        }
        if self.nul.is_none() {
            self.nul = memchr_zero(&data[self.searched..]).map(|at| self.searched + at);
            self.searched = data.len();
        }
        if self.invalid.is_none() {
            match std::str::from_utf8(&data[self.valid..]) {
                Ok(_) => self.valid = data.len(),
                // A character cut by the end of the chunk is completed by the next one.
                Err(e) if e.error_len().is_none() => self.valid += e.valid_up_to(),
                Err(e) => self.invalid = Some(self.valid + e.valid_up_to()),
            }
        }
    }

    /// Why `data` (the whole file, passed to every `advance`) is not UTF-8 text, as the offset
    /// of the first NUL byte, else the offset where UTF-8 stops.
    pub fn verdict(&self, data: &[u8]) -> Result<(), String> {
        if let Some(at) = self.nul {
            return Err(format!("a NUL byte at offset {at}"));
        }
        match self.invalid {
            Some(at) => Err(format!("invalid UTF-8 at offset {at}")),
            // A character cut by the end of the file.
            None if self.valid < data.len() => Err(format!("invalid UTF-8 at offset {}", self.valid)),
            None => Ok(()),
        }
    }
}

/// How many leading bytes, in whole 64-byte blocks, are ASCII other than NUL: whole characters
/// of text, with nothing left to look for in them.
#[cfg(target_arch = "x86_64")]
fn plain_ascii_prefix(bytes: &[u8]) -> usize {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_setzero_si128,
    };
    const BLOCK: usize = 64;
    let mut plain = 0;
    for block in bytes.chunks_exact(BLOCK) {
        // SAFETY: SSE2 is part of x86_64, and each load reads 16 bytes inside `block`.
        let flagged = unsafe {
            let lane = |at: usize| _mm_loadu_si128(block[at..at + 16].as_ptr().cast::<__m128i>());
            let (a, b, c, d) = (lane(0), lane(16), lane(32), lane(48));
            let zero = _mm_setzero_si128();
            // Bit 7 of a byte: set for non-ASCII, and for NUL once compared equal to zero.
            let high = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
            let nul = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(a, zero), _mm_cmpeq_epi8(b, zero)),
                _mm_or_si128(_mm_cmpeq_epi8(c, zero), _mm_cmpeq_epi8(d, zero)),
            );
            _mm_movemask_epi8(_mm_or_si128(high, nul))
        };
        if flagged != 0 {
            break;
        }
        plain += BLOCK;
    }
    plain
}

#[cfg(not(target_arch = "x86_64"))]
fn plain_ascii_prefix(_: &[u8]) -> usize {
    0
}

/// `contains` is the word-at-a-time memchr; the position is looked for only when it is there.
fn memchr_zero(data: &[u8]) -> Option<usize> {
    data.contains(&0).then(|| data.iter().position(|&b| b == 0)).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdict on `data` read in chunks of `chunk` bytes.
    fn check(data: &[u8], chunk: usize) -> Result<(), String> {
        let mut check = TextCheck::default();
        for end in (chunk..data.len()).step_by(chunk).chain([data.len()]) {
            check.advance(&data[..end]);
        }
        check.verdict(data)
    }

    #[test]
    fn agrees_with_a_whole_buffer_check_for_any_chunking() {
        let cases: [&[u8]; 7] = [
            b"plain text\n",
            "a€b😀c".as_bytes(),
            b"ab\0cd\0",
            b"ab\xffcd",
            b"\xff then \0",
            "cut at the end €".as_bytes().split_last().unwrap().1,
            b"",
        ];
        for data in cases {
            let whole = if let Some(at) = data.iter().position(|&b| b == 0) {
                Err(format!("a NUL byte at offset {at}"))
            } else {
                std::str::from_utf8(data)
                    .map(|_| ())
                    .map_err(|e| format!("invalid UTF-8 at offset {}", e.valid_up_to()))
            };
            for chunk in 1..=data.len().max(1) {
                assert_eq!(check(data, chunk), whole, "{data:?} in chunks of {chunk}");
            }
        }
    }

    #[test]
    fn finds_what_interrupts_long_ascii_runs() {
        for at in [0, 1, 63, 64, 65, 200, 255] {
            let mut data = vec![b'a'; 256];
            data[at] = 0;
            assert_eq!(check(&data, 100), Err(format!("a NUL byte at offset {at}")));
            data[at] = 0xff;
            assert_eq!(check(&data, 100), Err(format!("invalid UTF-8 at offset {at}")));
            data.splice(at..at + 1, "é".bytes());
            assert_eq!(check(&data, 100), Ok(()));
        }
        assert_eq!(check(&[b'a'; 300], 64), Ok(()));
    }
}
