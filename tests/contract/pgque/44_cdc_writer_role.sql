-- contract: a CDC trigger runs as the role that writes the table: a role with pgque_writer alone writes a table under jsontriga or sqltriga and the events are sent; under logutriga it is refused with 42501 'permission denied for function _urlencode' (PgQue grants _urlencode to pgque_admin only).
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
create table public.tj (id int primary key, v text);
create table public.tl (id int primary key, v text);
create table public.ts (id int primary key, v text);
create trigger a after insert on public.tj for each row execute procedure pgque.jsontriga('q');
create trigger a after insert on public.tl for each row execute procedure pgque.logutriga('q');
create trigger a after insert on public.ts for each row execute procedure pgque.sqltriga('q');
-- Roles belong to the server: one named after this database, dropped at the end.
create table contract.who as select 'cdc_' || current_database() as name;
do $$
declare
  r text := (select name from contract.who);
begin
  if not exists (select 1 from pg_roles where rolname = r) then
    execute format('create role %I', r);
  end if;
  execute format('grant pgque_writer to %I', r);
  execute format('grant all on public.tj, public.tl, public.ts to %I', r);
  execute format('grant usage on schema contract to %I', r);
  execute format('set role %I', r);
end $$;
select contract.eq(current_user::text, 'cdc_' || current_database(), 'now the writer role');
insert into public.tj values (1, 'a b');
insert into public.ts values (1, 'a b');
select contract.expect_error($$insert into public.tl values (1, 'a b')$$, '42501',
  'permission denied for function _urlencode');
reset role;
do $$
declare
  r text := (select name from contract.who);
begin
  execute format('drop owned by %I', r);
  execute format('drop role %I', r);
end $$;
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.put('b', pgque.next_batch('q', 'c'));
select contract.eq((select string_agg(ev_type || ' ' || ev_data, ', ' order by ev_id) from pgque.get_batch_events(contract.got('b'))),
  '{"op":"INSERT","table":["public","tj"],"pkey":["id"]} {"id":1,"v":"a b"}, I (id,v) values (''1'',''a b'')',
  'the writer''s two events');
