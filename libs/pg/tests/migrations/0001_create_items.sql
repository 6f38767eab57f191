CREATE TABLE items (id bigserial PRIMARY KEY, name text NOT NULL);
INSERT INTO items (name) VALUES ('from migration 1');
