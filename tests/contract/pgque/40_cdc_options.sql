-- contract: the CDC triggers' options: when= sends only rows where it is true; ev_type= and ev_extra1..4= set those fields from an SQL expression over the row; _pgq_ev_* columns set them too and are not data; SKIP in a BEFORE trigger sends the event and drops the row; session_replication_role 'local' sends nothing; a rollback takes the event back.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
create table public.opt (id int primary key, v text, _pgq_ev_extra4 text, _pgq_ev_type text);
create trigger cdc after insert or update or delete on public.opt
  for each row execute procedure pgque.jsontriga('q', 'when=v <> ''quiet''', 'ev_extra3=upper(v)', 'ev_type=''t:'' || id');
insert into public.opt values (1, 'loud', 'x4', 'magic');
insert into public.opt values (2, 'quiet', 'x4', 'magic');
update public.opt set v = 'quiet' where id = 1;
delete from public.opt where id = 1;
create table public.mag (id int primary key, v text, _pgq_ev_type text, _pgq_ev_extra1 text);
create trigger cdc after insert on public.mag for each row execute procedure pgque.logutriga('q');
insert into public.mag values (1, 'a', 'mt', null);
create table public.red (id int primary key, v text);
create trigger cdc before insert or update or delete on public.red
  for each row execute procedure pgque.logutriga('q', 'SKIP');
insert into public.red values (1, 'a');
select contract.eq((select count(*) from public.red), 0::bigint, 'SKIP: the row is not written');
create table public.keep (id int primary key, v text);
create trigger cdc before insert or update on public.keep
  for each row execute procedure pgque.sqltriga('q');
insert into public.keep values (1, 'a');
select contract.eq((select count(*) from public.keep), 1::bigint, 'a BEFORE trigger without SKIP lets the row through');
set session_replication_role = 'local';
insert into public.keep values (2, 'b');
insert into public.red values (3, 'c');
select contract.eq((select count(*) from public.red), 1::bigint, '''local'': even SKIP lets the row through');
reset session_replication_role;
begin;
insert into public.keep values (9, 'gone');
rollback;
select pgque.force_next_tick('q');
select pgque.ticker('q');
select contract.keep_events('ev', pgque.next_batch('q', 'c'));
select contract.eq((select count(*) from contract.ev), 4::bigint,
  'four events: none where when= is false, none under ''local'', none rolled back');
select contract.eq((select row(ev_type, ev_data, ev_extra1, ev_extra2, ev_extra3, ev_extra4)::text from contract.ev where n = 1),
  '(t:1,"{""id"":1,""v"":""loud""}",public.opt,,LOUD,x4)',
  'ev_type= wins over _pgq_ev_type; ev_extra3= is upper(v); _pgq_ev_extra4 sets ev_extra4; neither is data');
select contract.eq((select row(ev_type, ev_data, ev_extra1)::text from contract.ev where n = 2),
  '(mt,id=1&v=a,)', '_pgq_ev_type sets ev_type; a NULL _pgq_ev_extra1 makes ev_extra1 NULL');
select contract.eq((select ev_type || ' ' || ev_data || ' ' || ev_extra1 from contract.ev where n = 3),
  'I:id id=1&v=a public.red', 'SKIP still sends the event');
select contract.eq((select ev_type || ' ' || ev_data from contract.ev where n = 4),
  'I (id,v) values (''1'',''a'')', 'the BEFORE trigger''s event');
