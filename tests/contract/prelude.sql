-- The contract suite's assertion helpers, installed after the engine under test (the lab's
-- engine or real PgQue) and before a contract file's first statement. Plain SQL and
-- PL/pgSQL that runs on PostgreSQL 15 and 18; nothing here touches schema pgque.
create schema contract;

-- A tiny key/value stash: a statement keeps an id (a batch, an event, a tick) for a later
-- statement of the same file.
create table contract.stash (name text primary key, value bigint);

-- Keeps `value` under `name` (replacing an earlier value) and returns it.
create function contract.put(name text, value bigint) returns bigint
language plpgsql as $$
begin
  insert into contract.stash as s (name, value) values (put.name, put.value)
    on conflict on constraint stash_pkey do update set value = excluded.value;
  return value;
end $$;

-- The value kept under `name`; raises when nothing was kept under it.
create function contract.got(name text) returns bigint
language plpgsql stable as $$
declare
  v bigint;
  found_it boolean;
begin
  select s.value, true into v, found_it from contract.stash s where s.name = got.name;
  if found_it is null then
    raise exception 'contract: nothing stashed under %', quote_literal(name);
  end if;
  return v;
end $$;

-- Keeps the events of batch `batch` as table contract.<name>: n (their place in ev_id order,
-- from 1), then get_batch_events's columns; returns the batch.
create function contract.keep_events(name text, batch bigint) returns bigint
language plpgsql as $$
begin
  execute format('create table contract.%I as
                    select row_number() over (order by ev_id) as n, * from pgque.get_batch_events(%L)',
                 name, batch);
  return batch;
end $$;

-- Raises unless `actual` is `expected` (two NULLs are equal). Both sides are brought to a
-- common type first, so count(*) (bigint) compares with 3 (integer).
create function contract.eq(actual anycompatible, expected anycompatible, what text)
returns void
language plpgsql as $$
begin
  if actual is distinct from expected then
    raise exception 'contract: % — expected %, got %', what,
      coalesce(quote_literal(expected::text), 'NULL'),
      coalesce(quote_literal(actual::text), 'NULL');
  end if;
end $$;

-- Raises unless `condition` is true.
create function contract.ok(condition boolean, what text) returns void
language plpgsql as $$
begin
  if condition is not true then
    raise exception 'contract: % — expected true, got %', what,
      coalesce(condition::text, 'NULL');
  end if;
end $$;

-- Runs `sql` (EXECUTE, inside a subtransaction: its effects are undone) and raises unless it
-- fails with SQLSTATE `sqlstate` and exactly the message `message`. A P0001 error must also
-- be caught by a PL/pgSQL handler written `exception when raise_exception`, as an
-- application's handler around a PgQue call is.
create function contract.expect_error(sql text, state text, message text) returns void
language plpgsql as $$
declare
  got_state text;
  got_message text;
  handler text;
begin
  begin
    execute sql;
  exception
    when raise_exception then
      get stacked diagnostics got_state = returned_sqlstate, got_message = message_text;
      handler := 'raise_exception';
    when others then
      get stacked diagnostics got_state = returned_sqlstate, got_message = message_text;
      handler := 'others';
  end;
  if handler is null then
    raise exception 'contract: expected error % % from: % — it succeeded',
      state, quote_literal(message), sql;
  end if;
  if got_state is distinct from state or got_message is distinct from message then
    raise exception 'contract: from: % — expected error % %, got % %', sql,
      state, quote_literal(message), got_state, quote_literal(got_message);
  end if;
  if got_state = 'P0001' and handler <> 'raise_exception' then
    raise exception 'contract: from: % — P0001 not caught by `when raise_exception`', sql;
  end if;
end $$;

-- The number of rows `sql` returns (EXECUTEd once).
create function contract.count_rows(sql text) returns bigint
language plpgsql as $$
declare
  n bigint;
begin
  execute format('select count(*) from (%s) q', sql) into n;
  return n;
end $$;
