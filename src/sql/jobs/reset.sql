-- Drops L1's tables (schema.sql creates them afresh).
drop table if exists jobs, orders, effects
