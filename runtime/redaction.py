"""Secrets kept out of what others may see: a setting or table option whose key names a secret (a password, an S3
secret key, a token) has its value masked wherever dynsql writes it down for a person: the job registry's
records, SHOW JOBS, the history file, and the command lines of the processes it starts. The keys are those
Flink's configuration treats as sensitive (GlobalConfiguration.SENSITIVE_KEYS) and Spark's default
`spark.redaction.regex` (secret, password, token, access.key), matched anywhere in the key, ignoring case."""

import re

MASK = "******"
SENSITIVE = re.compile(r"(?i)password|passwd|secret|token|access[._-]?key|api[-_]?key|account\.key|service-key|"
                       r"auth-params|basic-auth|jaas\.config|http-headers|credential")
# Spark's own logs and UI mask the values of the settings this matches
SPARK_REDACTION_REGEX = SENSITIVE.pattern

# 'key' = 'value' as a SET statement and a WITH clause write it (a quote doubled inside)
_PAIR = re.compile(r"('(?:[^']|'')*'\s*=\s*)'((?:[^']|'')*)'")
_SET_PLAIN = re.compile(r"(?is)^(\s*SET\s+)([A-Za-z0-9_.\-]+)(\s*=\s*)(\S.*?)(\s*;?\s*)$")


def is_sensitive(key):
    return bool(SENSITIVE.search(key or ""))


def redact_conf(conf):
    """{key: value} with the sensitive keys' values masked."""
    return {k: (MASK if is_sensitive(k) else v) for k, v in conf.items()}


def redact_statement(text):
    """A statement's text with the value of each sensitive `'key' = 'value'` pair masked (SET statements and
    WITH options alike, and a SET with an unquoted key)."""
    def pair(m):
        key = m.group(1).split("=")[0].strip().strip("'")
        return m.group(1) + "'%s'" % MASK if is_sensitive(key) else m.group(0)
    masked = _PAIR.sub(pair, text)
    plain = _SET_PLAIN.match(masked)
    if plain and is_sensitive(plain.group(2)):
        masked = plain.group(1) + plain.group(2) + plain.group(3) + "'%s'" % MASK + plain.group(5)
    return masked
