ALTER TABLE items ADD COLUMN note text;
INSERT INTO items (name, note) VALUES ('from migration 2', 'second');
