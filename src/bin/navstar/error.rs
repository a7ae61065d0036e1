//! The error a command returns; it decides the exit code.
//!
//! Command-line syntax errors (unknown options, bad values, missing arguments) never get
//! here: `clap` reports them and exits with code 2. These are the usage errors that can
//! only be seen once a file is open (a point with two coordinates on a Y-up mesh, an
//! unknown mesh extension) and the failures of the work itself.

/// Why a command did not succeed: a usage error exits with code 2 (after `clap`'s usage
/// line), a failure with code 1.
#[derive(Debug)]
pub enum CliError {
    /// The command line does not fit the files it names (exit code 2).
    Usage(String),
    /// The command ran but failed: unreadable file, rejected mesh, failed path (exit 1).
    Failure(String),
}

impl CliError {
    /// A usage error.
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::Usage(message.into())
    }

    /// A failure.
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError::Failure(message.into())
    }
}
