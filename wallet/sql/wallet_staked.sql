-- wallet_staked(escrow, stake_kinds, users): user id -> net amount staked (stakes and entry
-- fees minus refunds, reversals included), the SQL twin of wallet.staking.staked.
-- PostgreSQL only; created by migration wallet/0003, which loads this file as it is.
-- To change it: edit this file and add a migration that runs it again (CREATE OR REPLACE;
-- a changed signature: drop the old one there). tests/wallet/test_sql_source.py checks that
-- the database runs what this file says.

-- Starts from the escrow's transactions (a table's few stakes, refunds and its settlement)
-- whatever the statistics say: started from a wallet, it would read the wallet's whole
-- history, which only grows.
CREATE OR REPLACE FUNCTION wallet_staked(p_escrow text, p_stake_kinds text[], p_users bigint[])
RETURNS TABLE (user_id bigint, staked bigint) LANGUAGE sql STABLE AS $$
    WITH t AS MATERIALIZED (
        SELECT t.id, t.kind, t.reverses_id FROM wallet_transaction t WHERE t.reference = p_escrow
    )
    SELECT a.owner_id::bigint, (-sum(e.amount))::bigint
      FROM t
      LEFT JOIN wallet_transaction r ON r.id = t.reverses_id
      JOIN wallet_entry e ON e.transaction_id = t.id
      JOIN wallet_account a ON a.id = e.account_id
     WHERE (t.kind = ANY (p_stake_kinds) OR r.kind = ANY (p_stake_kinds))
       AND a.kind = 'wallet'
       AND (p_users IS NULL OR a.owner_id = ANY (p_users))
     GROUP BY a.owner_id
    HAVING sum(e.amount) <> 0
$$;
