-- A sizes map is a JSON object whose values are integers >= 0 (size label -> units).
-- Used by CHECK constraints on listings, requests and order contributions, so stock can never go negative.
CREATE OR REPLACE FUNCTION sizes_map_valid(m jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT jsonb_typeof(m) = 'object'
     AND NOT EXISTS (
       SELECT 1 FROM jsonb_each(m) AS e(k, v)
       WHERE jsonb_typeof(v) <> 'number' OR (v::text)::numeric < 0 OR (v::text)::numeric <> trunc((v::text)::numeric)
     )
$$;
