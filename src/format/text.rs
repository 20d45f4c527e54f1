//! Model text as bytes: the UTF-8 check that locates the first bad byte (of a whole file, or of a
//! stream read in chunks) and the byte order mark skipped at the start of a stream.

use super::position::ParseError;

/// The text of a file, or the line and column of its first byte that is not UTF-8.
pub fn utf8_text(bytes: Vec<u8>, file: &str) -> Result<String, ParseError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // Valid by construction; the position is that of the first bad byte.
        let before = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        ParseError::at(
            file,
            before,
            valid,
            format!("the byte 0x{:02X}, which is not UTF-8", bytes[valid]),
            "UTF-8 text",
        )
    })
}

/// Skips a UTF-8 byte order mark at the start of `reader`.
pub fn skip_bom<R: std::io::BufRead>(reader: &mut R) -> std::io::Result<()> {
    if reader.fill_buf()?.starts_with(b"\xef\xbb\xbf") {
        reader.consume(3);
    }
    Ok(())
}

/// The position of the first byte of `reader` that is not UTF-8, as [`utf8_text`] reports it,
/// found by reading in chunks (for files read as streams, whose text is never held whole).
pub fn first_non_utf8<R: std::io::Read>(
    mut reader: R,
    file: &str,
) -> std::io::Result<Option<ParseError>> {
    let (mut line, mut column) = (1usize, 1usize);
    let mut buf = vec![0u8; 1 << 16];
    let mut carry = 0usize;
    loop {
        let read = reader.read(&mut buf[carry..])?;
        let len = carry + read;
        let at_end = read == 0;
        let (valid, bad) = match std::str::from_utf8(&buf[..len]) {
            Ok(_) => (len, false),
            // An incomplete sequence at the end of a chunk may be completed by the next one.
            Err(e) if e.error_len().is_none() && !at_end => (e.valid_up_to(), false),
            Err(e) => (e.valid_up_to(), true),
        };
        for c in std::str::from_utf8(&buf[..valid])
            .unwrap_or_default()
            .chars()
        {
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        if bad {
            return Ok(Some(ParseError {
                file: file.to_owned(),
                line,
                column,
                found: format!("the byte 0x{:02X}, which is not UTF-8", buf[valid]),
                expected: "UTF-8 text".into(),
            }));
        }
        if at_end {
            return Ok(None);
        }
        buf.copy_within(valid..len, 0);
        carry = len - valid;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The streamed UTF-8 check against the whole-text one.
    mod utf8 {
        use super::super::{first_non_utf8, utf8_text};
        use proptest::prelude::*;

        /// A reader that hands out at most `chunk` bytes per read, so multi-byte characters
        /// and bad bytes fall on every position relative to a read's end.
        struct Trickle<'a> {
            bytes: &'a [u8],
            chunk: usize,
        }

        impl std::io::Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.chunk.min(buf.len()).min(self.bytes.len());
                buf[..n].copy_from_slice(&self.bytes[..n]);
                self.bytes = &self.bytes[n..];
                Ok(n)
            }
        }

        proptest! {
            /// The streamed check finds the same first bad byte, at the same line and column,
            /// as the check of the whole text, however the reads split the text.
            #[test]
            fn first_non_utf8_agrees_with_utf8_text(
                pieces in prop::collection::vec(
                    prop_oneof![
                        3 => "[a\n\u{e9}\u{20ac}\u{1F600}]{0,6}".prop_map(String::into_bytes),
                        1 => prop::collection::vec(any::<u8>(), 0..3),
                    ],
                    0..12,
                ),
                chunk in 1usize..8,
            ) {
                let bytes = pieces.concat();
                let streamed = first_non_utf8(Trickle { bytes: &bytes, chunk }, "f").unwrap();
                prop_assert_eq!(streamed, utf8_text(bytes, "f").err());
            }
        }
    }

    #[test]
    fn first_non_utf8_reads_past_a_character_split_by_its_buffer() {
        let mut bytes = "x".repeat((1 << 16) - 1).into_bytes();
        bytes.extend("\u{20ac}\n\u{e9}".as_bytes());
        bytes.push(0xFF);
        let streamed = first_non_utf8(bytes.as_slice(), "f").unwrap();
        assert_eq!(streamed.as_ref().map(|e| (e.line, e.column)), Some((2, 2)));
        assert_eq!(streamed, utf8_text(bytes, "f").err());
    }
}
