-- Computer accounts (engines playing through the terminal client), shown as
-- (C) in who, finger and game lines, as FICS marks them.
ALTER TABLE users ADD COLUMN computer INTEGER NOT NULL DEFAULT 0;
