-- Trigram indexes back the pull list's "contains" search (name, email, VIN, policy number…).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
