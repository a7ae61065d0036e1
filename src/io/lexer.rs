//! Streaming readers shared by the text formats: a tokenizer ([`Lexer`]) for the formats
//! whose layout is free, and a line reader ([`LineReader`]) for the line-based ones.
//!
//! Both read straight from a [`BufRead`]'s buffer, so memory stays bounded whatever the
//! input: a token longer than [`MAX_TOKEN_LEN`] bytes, or a line longer than the limit
//! its format sets, is an error, and skipped text (blanks, comments, the rest of a line)
//! is never copied. Tokens and lines are raw bytes; the formats decide what they mean,
//! so invalid UTF-8 is an ordinary parse error.
//!
//! Invariant of [`Lexer`]: `line` is the 1-based number of the line that holds the next
//! unread byte.

use std::io::{BufRead, ErrorKind};

use super::LoadError;
use crate::error::MeshError;

/// Longest token accepted, in bytes. Numbers and OBJ keywords are far shorter; the limit
/// only stops a garbage file from growing the token buffer without bound.
pub(super) const MAX_TOKEN_LEN: usize = 256;

/// One token and the line it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Token<'a> {
    /// The token's bytes (never empty, at most [`MAX_TOKEN_LEN`]).
    pub bytes: &'a [u8],
    /// 1-based line number.
    pub line: u64,
}

/// Splits a byte stream into whitespace-separated tokens and tracks line numbers.
pub(super) struct Lexer<R> {
    reader: R,
    /// Line of the next unread byte (1-based).
    line: u64,
    /// Whether the last byte consumed was a newline (so the file's last line is `line - 1`).
    after_newline: bool,
    /// The byte that starts a comment running to the end of the line, if the format has one.
    comment: Option<u8>,
    /// The current token; at most `MAX_TOKEN_LEN` bytes.
    token: Vec<u8>,
}

impl<R: BufRead> Lexer<R> {
    /// A lexer over `reader`; `comment` is the byte that starts a line comment, if any.
    pub(super) fn new(reader: R, comment: Option<u8>) -> Self {
        Lexer {
            reader,
            line: 1,
            after_newline: false,
            comment,
            token: Vec::with_capacity(MAX_TOKEN_LEN + 1),
        }
    }

    /// The line of the last token read (or of the next byte, between tokens).
    pub(super) fn line(&self) -> u64 {
        self.line
    }

    /// The last line of the file, for "unexpected end of file" errors: a final newline
    /// ends the last line rather than starting an empty one.
    pub(super) fn eof_line(&self) -> u64 {
        if self.after_newline && self.line > 1 {
            self.line - 1
        } else {
            self.line
        }
    }

    /// The next token on the current line, or `None` at the end of the line or file.
    /// The newline itself is left for [`Lexer::next_line`].
    pub(super) fn token_in_line(&mut self) -> Result<Option<Token<'_>>, LoadError> {
        match self.skip_blanks(true)? {
            None | Some(b'\n') => Ok(None),
            Some(_) => self.read_token().map(Some),
        }
    }

    /// The next token, on this line or a later one, or `None` at the end of the file.
    pub(super) fn token(&mut self) -> Result<Option<Token<'_>>, LoadError> {
        match self.skip_blanks(false)? {
            None => Ok(None),
            Some(_) => self.read_token().map(Some),
        }
    }

    /// The next token, on this line or a later one; at the end of the file, the error
    /// that `at_eof` makes from the file's last line number.
    pub(super) fn expect_token(
        &mut self,
        at_eof: impl FnOnce(u64) -> LoadError,
    ) -> Result<Token<'_>, LoadError> {
        match self.skip_blanks(false)? {
            None => Err(at_eof(self.eof_line())),
            Some(_) => self.read_token(),
        }
    }

    /// Discards the rest of the current line, newline included. Returns `false` when the
    /// end of the file came first.
    pub(super) fn next_line(&mut self) -> Result<bool, LoadError> {
        loop {
            let buf = fill(&mut self.reader)?;
            if buf.is_empty() {
                return Ok(false);
            }
            if let Some(at) = buf.iter().position(|&b| b == b'\n') {
                self.reader.consume(at + 1);
                self.line += 1;
                self.after_newline = true;
                return Ok(true);
            }
            let len = buf.len();
            self.reader.consume(len);
            self.after_newline = false;
        }
    }

    /// Consumes blanks and comments (and newlines unless `stop_at_newline`), and returns
    /// the first byte after them without consuming it; `None` at the end of the file.
    fn skip_blanks(&mut self, stop_at_newline: bool) -> Result<Option<u8>, LoadError> {
        let mut in_comment = false;
        loop {
            let buf = fill(&mut self.reader)?;
            if buf.is_empty() {
                return Ok(None);
            }
            let mut used = 0;
            let mut found = None;
            for &b in buf {
                if b == b'\n' {
                    if stop_at_newline {
                        found = Some(b);
                        break;
                    }
                    in_comment = false;
                    self.line += 1;
                } else if !(in_comment || is_blank(b)) {
                    if Some(b) != self.comment {
                        found = Some(b);
                        break;
                    }
                    in_comment = true;
                }
                used += 1;
            }
            if used > 0 {
                self.after_newline = buf[used - 1] == b'\n';
                self.reader.consume(used);
            }
            if found.is_some() {
                return Ok(found);
            }
        }
    }

    /// Reads the token that starts at the next byte (which is not a delimiter).
    fn read_token(&mut self) -> Result<Token<'_>, LoadError> {
        self.token.clear();
        loop {
            let buf = fill(&mut self.reader)?;
            if buf.is_empty() {
                break;
            }
            let comment = self.comment;
            let end = buf
                .iter()
                .position(|&b| is_blank(b) || b == b'\n' || Some(b) == comment)
                .unwrap_or(buf.len());
            let reached_delimiter = end < buf.len();
            // Copy at most one byte beyond the limit: enough to detect an overlong token.
            let take = end.min(MAX_TOKEN_LEN + 1 - self.token.len());
            self.token.extend_from_slice(&buf[..take]);
            self.reader.consume(take);
            if self.token.len() > MAX_TOKEN_LEN {
                return Err(LoadError::parse(
                    self.line,
                    format!("a token is longer than {MAX_TOKEN_LEN} bytes"),
                ));
            }
            if reached_delimiter {
                break;
            }
        }
        self.after_newline = false;
        Ok(Token {
            bytes: &self.token,
            line: self.line,
        })
    }
}

/// Reads a text one line at a time, with line numbers, keeping at most one line (of a
/// bounded length) in memory.
pub(super) struct LineReader<R> {
    reader: R,
    /// 1-based number of the line last returned (0 before the first).
    line: u64,
    /// The current line, without its line ending.
    text: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A line reader over `reader`.
    pub(super) fn new(reader: R) -> Self {
        LineReader {
            reader,
            line: 0,
            text: Vec::new(),
        }
    }

    /// The 1-based number of the line last returned by [`LineReader::next_line`] (the
    /// last line of the file once it returned `None`; 0 for an empty file).
    pub(super) fn line(&self) -> u64 {
        self.line
    }

    /// The next line's 1-based number and text without its line ending (`\n` or
    /// `\r\n`), or `None` at the end of the file. A final line without a newline is still
    /// a line; a final newline does not start an empty one.
    ///
    /// A line of more than `max_len` bytes (line ending excluded) is an error at its line
    /// number, raised as soon as the limit is passed: `too_long(line)` makes it.
    pub(super) fn next_line(
        &mut self,
        max_len: usize,
        too_long: impl FnOnce(u64) -> LoadError,
    ) -> Result<Option<(u64, &[u8])>, LoadError> {
        self.text.clear();
        // One byte more than the limit may be a `\r` before the newline.
        let keep = max_len.saturating_add(1);
        let mut any = false;
        loop {
            let buf = fill(&mut self.reader)?;
            if buf.is_empty() {
                break;
            }
            if !any {
                any = true;
                self.line += 1;
            }
            let (end, newline) = match buf.iter().position(|&b| b == b'\n') {
                Some(at) => (at, true),
                None => (buf.len(), false),
            };
            if self.text.len() + end > keep {
                return Err(too_long(self.line));
            }
            self.text
                .try_reserve(end)
                .map_err(|_| MeshError::OutOfMemory("a line of text"))?;
            self.text.extend_from_slice(&buf[..end]);
            self.reader.consume(end + usize::from(newline));
            if newline {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if self.text.last() == Some(&b'\r') {
            self.text.pop();
        }
        if self.text.len() > max_len {
            return Err(too_long(self.line));
        }
        Ok(Some((self.line, &self.text)))
    }
}

/// Blanks separate tokens within a line. `\r` is one, so CRLF files need no special case.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// `fill_buf`, retrying when a signal interrupted the read.
fn fill<R: BufRead>(reader: &mut R) -> Result<&[u8], LoadError> {
    loop {
        match reader.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        }
    }
    // The buffer is full now, so this second call only returns it.
    reader.fill_buf().map_err(LoadError::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens_by_line(text: &str, comment: Option<u8>) -> Vec<(u64, Vec<String>)> {
        let mut lex = Lexer::new(text.as_bytes(), comment);
        let mut lines = Vec::new();
        loop {
            let line = lex.line();
            let mut words = Vec::new();
            while let Some(t) = lex.token_in_line().unwrap() {
                words.push(String::from_utf8(t.bytes.to_vec()).unwrap());
            }
            lines.push((line, words));
            if !lex.next_line().unwrap() {
                return lines;
            }
        }
    }

    #[test]
    fn splits_lines_with_crlf_tabs_and_comments() {
        let lines = tokens_by_line("v 1\t2 #c 3\r\n\r\n  f 1/2 -1#x\n", Some(b'#'));
        assert_eq!(
            lines,
            vec![
                (1, vec!["v".into(), "1".into(), "2".into()]),
                (2, vec![]),
                (3, vec!["f".into(), "1/2".into(), "-1".into()]),
                (4, vec![]),
            ]
        );
    }

    #[test]
    fn tokens_cross_lines_and_count_them() {
        let mut lex = Lexer::new(&b"mesh\n\n 2 \t\r\n3"[..], None);
        let mut seen = Vec::new();
        while let Some(t) = lex.token().unwrap() {
            seen.push((t.line, t.bytes.to_vec()));
        }
        assert_eq!(
            seen,
            vec![
                (1, b"mesh".to_vec()),
                (3, b"2".to_vec()),
                (4, b"3".to_vec())
            ]
        );
        assert_eq!(lex.eof_line(), 4);
    }

    #[test]
    fn eof_line_ignores_the_final_newline() {
        let mut lex = Lexer::new(&b"a\nb\n"[..], None);
        while lex.token().unwrap().is_some() {}
        assert_eq!(lex.eof_line(), 2);
    }

    #[test]
    fn overlong_token_is_an_error() {
        let text = format!("ok\n{}", "9".repeat(MAX_TOKEN_LEN + 1));
        let mut lex = Lexer::new(text.as_bytes(), None);
        assert!(lex.token().unwrap().is_some());
        match lex.token() {
            Err(LoadError::Parse { line: 2, .. }) => {}
            other => panic!("unexpected {other:?}"),
        }
        let exact = "7".repeat(MAX_TOKEN_LEN);
        let mut lex = Lexer::new(exact.as_bytes(), None);
        assert_eq!(
            lex.token().unwrap().map(|t| t.bytes.len()),
            Some(MAX_TOKEN_LEN)
        );
    }

    fn all_lines(text: &[u8], capacity: usize, max_len: usize) -> Result<Vec<(u64, String)>, u64> {
        let reader = std::io::BufReader::with_capacity(capacity, text);
        let mut lines = LineReader::new(reader);
        let mut seen = Vec::new();
        loop {
            match lines.next_line(max_len, |line| LoadError::parse(line, "long")) {
                Ok(Some((line, text))) => {
                    let text = String::from_utf8(text.to_vec()).unwrap();
                    assert_eq!(line, lines.line());
                    seen.push((line, text));
                }
                Ok(None) => return Ok(seen),
                Err(LoadError::Parse { line, .. }) => return Err(line),
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn lines_strip_line_endings_and_count() {
        for capacity in [1, 2, 3, 64] {
            let lines = all_lines(b"ab\r\n\ncd\r\nef", capacity, 2).unwrap();
            let expected = [(1, "ab"), (2, ""), (3, "cd"), (4, "ef")];
            let expected: Vec<(u64, String)> =
                expected.iter().map(|&(l, t)| (l, t.to_string())).collect();
            assert_eq!(lines, expected, "capacity {capacity}");
            assert_eq!(all_lines(b"a\n", capacity, 2).unwrap().len(), 1);
            assert_eq!(all_lines(b"", capacity, 2).unwrap().len(), 0);
            assert_eq!(all_lines(b"\n", capacity, 2).unwrap(), [(1, String::new())]);
        }
    }

    #[test]
    fn long_lines_are_errors_at_their_line() {
        for capacity in [1, 2, 64] {
            assert_eq!(all_lines(b"ab\nabc\n", capacity, 2), Err(2));
            assert_eq!(all_lines(b"ab\nab\r\r\n", capacity, 2), Err(2));
            assert_eq!(all_lines(b"ab\nab\r", capacity, 2).unwrap().len(), 2);
        }
    }

    #[test]
    fn tiny_buffers_give_the_same_tokens() {
        let text = "mesh 2\n12345 -6.5e3 # x\n";
        let reader = std::io::BufReader::with_capacity(1, text.as_bytes());
        let mut lex = Lexer::new(reader, Some(b'#'));
        let mut seen = Vec::new();
        while let Some(t) = lex.token().unwrap() {
            seen.push(String::from_utf8(t.bytes.to_vec()).unwrap());
        }
        assert_eq!(seen, ["mesh", "2", "12345", "-6.5e3"]);
        assert_eq!(lex.eof_line(), 2);
    }
}
