//! A small hand-written argument parser (no dependencies) and the CLI error type.
//!
//! Each command declares a [`Spec`]: which `--options` take a value and which are plain
//! flags. Values may follow as the next argument (`--from 1,2`, which also accepts
//! negative numbers such as `--from -1,2`) or after `=` (`--from=1,2`). `--` ends the
//! options; everything else is positional.

use std::fmt;
use std::str::FromStr;

/// Why a command did not succeed; decides the exit code.
#[derive(Debug)]
pub enum CliError {
    /// The command line is wrong (exit code 2).
    Usage {
        /// The command, when one was recognised (for the "see --help" hint).
        command: Option<&'static str>,
        /// What is wrong.
        message: String,
    },
    /// The command ran but failed: unreadable file, rejected mesh, failed path (exit 1).
    Failure(String),
}

impl CliError {
    /// A usage error of `command`.
    pub fn usage(command: Option<&'static str>, message: impl Into<String>) -> CliError {
        CliError::Usage {
            command,
            message: message.into(),
        }
    }

    /// A failure.
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError::Failure(message.into())
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage { .. } => 2,
            CliError::Failure(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage {
                command: Some(command),
                message,
            } => write!(
                f,
                "navstar {command}: error: {message}\n(see 'navstar {command} --help')"
            ),
            CliError::Usage {
                command: None,
                message,
            } => write!(f, "navstar: error: {message}"),
            CliError::Failure(message) => write!(f, "navstar: error: {message}"),
        }
    }
}

/// The options a command accepts.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// Options that take a value, without the dashes (`"from"`); single letters are
    /// short options (`"o"` for `-o`).
    pub values: &'static [&'static str],
    /// Options without a value (`"no-partial"`).
    pub flags: &'static [&'static str],
    /// Names of the positional arguments, in order, for messages (`"MESH"`).
    pub positionals: &'static [&'static str],
}

/// True when `--help` or `-h` appears before any `--`.
pub fn wants_help(argv: &[String]) -> bool {
    argv.iter()
        .take_while(|a| a.as_str() != "--")
        .any(|a| a == "--help" || a == "-h")
}

/// A parsed command line.
#[derive(Debug)]
pub struct Args {
    command: &'static str,
    positionals: Vec<String>,
    values: Vec<(&'static str, String)>,
    flags: Vec<&'static str>,
}

impl Args {
    /// Parses `argv` (the arguments after the command name) against `spec`.
    ///
    /// # Errors
    /// A usage error for an unknown option, a missing value, an option given twice, or
    /// a wrong number of positional arguments.
    pub fn parse(command: &'static str, spec: &Spec, argv: &[String]) -> Result<Args, CliError> {
        let usage = |message: String| CliError::usage(Some(command), message);
        let mut args = Args {
            command,
            positionals: Vec::new(),
            values: Vec::new(),
            flags: Vec::new(),
        };
        let mut rest = argv.iter();
        let mut options_done = false;
        while let Some(arg) = rest.next() {
            let name = match arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) {
                Some(name) if !options_done && !name.is_empty() => name,
                _ if !options_done && arg == "--" => {
                    options_done = true;
                    continue;
                }
                _ => {
                    args.positionals.push(arg.clone());
                    continue;
                }
            };
            let (name, inline) = match name.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (name, None),
            };
            if let Some(&known) = spec.values.iter().find(|&&v| v == name) {
                let value = match inline {
                    Some(value) => value.to_string(),
                    None => rest
                        .next()
                        .ok_or_else(|| usage(format!("option '{arg}' needs a value")))?
                        .clone(),
                };
                if args.values.iter().any(|(n, _)| *n == known) {
                    return Err(usage(format!("option '{}' given twice", dashed(known))));
                }
                args.values.push((known, value));
            } else if let Some(&known) = spec.flags.iter().find(|&&f| f == name) {
                if inline.is_some() {
                    return Err(usage(format!("option '{}' takes no value", dashed(known))));
                }
                if !args.flags.contains(&known) {
                    args.flags.push(known);
                }
            } else {
                return Err(usage(format!("unknown option '{arg}'")));
            }
        }
        let expected = spec.positionals.len();
        if args.positionals.len() < expected {
            let missing = &spec.positionals[args.positionals.len()..];
            return Err(usage(format!("missing argument {}", missing.join(" "))));
        }
        if args.positionals.len() > expected {
            return Err(usage(format!(
                "unexpected argument '{}'",
                args.positionals[expected]
            )));
        }
        Ok(args)
    }

    /// Positional argument `index` (the parser checked that it exists).
    pub fn positional(&self, index: usize) -> &str {
        &self.positionals[index]
    }

    /// The raw value of option `name`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }

    /// Option `name` parsed with [`FromStr`], if given.
    ///
    /// # Errors
    /// A usage error naming the option and the parser's reason.
    pub fn parsed<T>(&self, name: &str) -> Result<Option<T>, CliError>
    where
        T: FromStr,
        T::Err: fmt::Display,
    {
        self.value(name)
            .map(|raw| {
                raw.parse().map_err(|e| {
                    self.usage(format!("invalid value '{raw}' for {}: {e}", dashed(name)))
                })
            })
            .transpose()
    }

    /// A usage error of this command.
    pub fn usage(&self, message: impl Into<String>) -> CliError {
        CliError::usage(Some(self.command), message)
    }
}

/// `"from"` as `--from`, `"o"` as `-o`.
pub fn dashed(name: &str) -> String {
    if name.len() == 1 {
        format!("-{name}")
    } else {
        format!("--{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        values: &["from", "o"],
        flags: &["no-partial"],
        positionals: &["MESH"],
    };

    fn parse(argv: &[&str]) -> Result<Args, CliError> {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        Args::parse("path", &SPEC, &argv)
    }

    #[test]
    fn values_flags_and_positionals() {
        let args = parse(&["m.obj", "--from", "-1,2", "-o=x.svg", "--no-partial"]).unwrap();
        assert_eq!(args.positional(0), "m.obj");
        assert_eq!(args.value("from"), Some("-1,2"));
        assert_eq!(args.value("o"), Some("x.svg"));
        assert!(args.flag("no-partial"));
    }

    #[test]
    fn errors_are_usage_errors() {
        for argv in [
            &["m.obj", "--bogus"][..],
            &["m.obj", "--from"],
            &["m.obj", "--from", "1", "--from", "2"],
            &[],
            &["a", "b"],
            &["m.obj", "--no-partial=yes"],
        ] {
            let error = parse(argv).unwrap_err();
            assert_eq!(error.exit_code(), 2, "{argv:?}: {error}");
        }
    }

    #[test]
    fn double_dash_ends_options() {
        let args = parse(&["--", "--weird-name.obj"]).unwrap();
        assert_eq!(args.positional(0), "--weird-name.obj");
        assert!(wants_help(&["x".into(), "-h".into()]));
        assert!(!wants_help(&["--".into(), "-h".into()]));
    }
}
