-- contract: the CDC triggers refuse misuse with P0001 and PgQue's words: no queue argument, an unknown argument (ev_data= included), an unknown queue, an UPDATE or DELETE without key columns, a key update, and deny's refusal of every change.
select pgque.create_queue('q');
create table public.t (id int primary key, v text);
create table public.nk (v text);
insert into public.t values (1, 'a');
insert into public.nk values ('a');
create trigger a after insert on public.t for each row execute procedure pgque.jsontriga();
select contract.expect_error($$insert into public.t values (2, 'b')$$, 'P0001', 'Trigger needs queue name');
drop trigger a on public.t;
create trigger a after insert on public.t for each row execute procedure pgque.logutriga('q', 'nonsense');
select contract.expect_error($$insert into public.t values (2, 'b')$$, 'P0001', 'bad argument: nonsense');
drop trigger a on public.t;
create trigger a after insert on public.t for each row execute procedure pgque.sqltriga('q', 'ev_data=1');
select contract.expect_error($$insert into public.t values (2, 'b')$$, 'P0001', 'bad argument: ev_data=1');
drop trigger a on public.t;
create trigger a after insert on public.t for each row execute procedure pgque.jsontriga('q', 'colour=red');
select contract.expect_error($$insert into public.t values (2, 'b')$$, 'P0001', 'bad argument: colour=red');
drop trigger a on public.t;
create trigger a after insert on public.t for each row execute procedure pgque.jsontriga('nope');
select contract.expect_error($$insert into public.t values (2, 'b')$$, 'P0001', 'queue not found: nope');
drop trigger a on public.t;
create trigger a after update on public.t for each row execute procedure pgque.logutriga('q');
select contract.expect_error($$update public.t set id = 2$$, 'P0001', 'primary key update not allowed');
drop trigger a on public.t;
create trigger a after update on public.t for each row execute procedure pgque.sqltriga('q', 'pkey=');
select contract.expect_error($$update public.t set v = 'z'$$, 'P0001', 'Update/Delete on table without pkey');
drop trigger a on public.t;
create trigger a after insert or update or delete on public.t for each row execute procedure pgque.logutriga('q', 'deny');
select contract.expect_error($$insert into public.t values (5, 'a')$$, 'P0001',
  'Table ''public.t'' to queue ''q'': change not allowed (INSERT)');
select contract.expect_error($$delete from public.t$$, 'P0001',
  'Table ''public.t'' to queue ''q'': change not allowed (DELETE)');
drop trigger a on public.t;
create trigger a after insert or update or delete on public.nk for each row execute procedure pgque.sqltriga('q');
select contract.expect_error($$update public.nk set v = 'y'$$, 'P0001', 'Update/Delete on table without pkey');
select contract.expect_error($$delete from public.nk$$, 'P0001', 'Update/Delete on table without pkey');
-- A refused change is undone with its event: nothing reached the queue, the rows are as they were.
select contract.eq((select ev_new from pgque.get_queue_info('q')), 0::bigint, 'no event in q');
select contract.eq((select string_agg(id || v, ',' order by id) from public.t), '1a', 't unchanged');
