-- A game answers only for its own product's orders: a result published on another product's
-- routing key is kept as 'rejected' with the product it claimed, and changes nothing.
alter table game_result add column claimed_product text not null default '';
alter table game_result drop constraint game_result_effect_check;
alter table game_result add constraint game_result_effect_check
    check (effect in ('applied', 'duplicate', 'late', 'conflicting', 'unknown_order', 'rejected'));
