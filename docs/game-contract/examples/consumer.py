"""A game team's consumer of Kid recharge orders, in Python with pika (docs/game-contract/README.md).

It runs as it is against a development broker: it declares its own dead letters
(game.<product>.dlx and game.<product>.dlq), its orders queue and its outcomes queue, credits
each order once (a SQLite file stands in for your game's database), answers on
recharge.result.<product>, and logs the outcome the portal gives each answer. The Kid repository
runs it against the sandbox (scripts/game-sandbox) in its tests, as a game team's own user.

    pip install -r requirements.txt   # pika
    KID_PRODUCT=jxonline2 python3 consumer.py

Settings (environment): KID_AMQP_URL (amqp://guest:guest@127.0.0.1:5672/%2f), KID_EXCHANGE
(kid.events), KID_PRODUCT (jxonline2), KID_GAME_DB (game.sqlite3).
"""

import json
import logging
import os
import sqlite3
import time
import uuid
from datetime import datetime, timezone

import pika
from pika.exceptions import AMQPError

AMQP_URL = os.environ.get("KID_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f")
EXCHANGE = os.environ.get("KID_EXCHANGE", "kid.events")
PRODUCT = os.environ.get("KID_PRODUCT", "jxonline2")
GAME_DB = os.environ.get("KID_GAME_DB", "game.sqlite3")

ORDERS = f"game.{PRODUCT}.recharge-orders"
OUTCOMES = f"game.{PRODUCT}.outcomes"
DEAD_LETTER_EXCHANGE = f"game.{PRODUCT}.dlx"
DEAD_LETTERS = f"game.{PRODUCT}.dlq"

# The order body's version this consumer knows; another one is not credited.
SCHEMA_VERSION = 1
ORDER_FIELDS = ("orderId", "username", "zoneId", "totalCoins", "lotteryPoints", "deliverBy")

log = logging.getLogger("kid-consumer")


class Game:
    """Your game's side: credits an order at most once, and keeps the answer it gave."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        with self.db:
            self.db.execute(
                "create table if not exists answered (order_id text primary key, status text not null, reason text)"
            )
            self.db.execute(
                "create table if not exists credited (order_id text primary key, username text, zone_id integer,"
                " coins integer, lottery_points integer)"
            )

    def credit_once(self, order):
        """In one transaction keyed by orderId: the stored answer if this order was answered,
        otherwise credit it (or refuse it) and store the answer. ("delivered", None) or
        ("failed", "a reason")."""
        with self.db:
            row = self.db.execute(
                "select status, reason from answered where order_id = ?", (order["orderId"],)
            ).fetchone()
            if row:
                return row[0], row[1]
            deliver_by = datetime.fromisoformat(order["deliverBy"].replace("Z", "+00:00"))
            if datetime.now(timezone.utc) > deliver_by:
                # The portal has refunded it: crediting now would give the player both.
                status, reason = "failed", "received after deliverBy"
            else:
                # Here your game puts totalCoins (and lotteryPoints, which are yours to credit)
                # on the character of username on zoneId.
                self.db.execute(
                    "insert into credited values (?, ?, ?, ?, ?)",
                    (order["orderId"], order["username"], order["zoneId"], order["totalCoins"], order["lotteryPoints"]),
                )
                status, reason = "delivered", None
            self.db.execute("insert into answered values (?, ?, ?)", (order["orderId"], status, reason))
            return status, reason


def readable(body):
    """The order, or None when it cannot be credited as this consumer knows orders."""
    try:
        order = json.loads(body)
    except ValueError:
        log.error("an order that is not JSON: dead-lettered, tell Kid: %r", body[:200])
        return None
    if not isinstance(order, dict) or order.get("schemaVersion") != SCHEMA_VERSION:
        log.error("an order of an unknown schemaVersion: dead-lettered, tell Kid: %r", body[:200])
        return None
    missing = [field for field in ORDER_FIELDS if field not in order]
    if missing:
        log.error("an order without %s: dead-lettered, tell Kid", ", ".join(missing))
        return None
    return order


class PublishFailed(Exception):
    """The broker did not take a result: the order stays unacknowledged and comes back."""


def answer(channel, order, status, reason):
    result = {
        "schemaVersion": SCHEMA_VERSION,
        "messageId": str(uuid.uuid4()),
        "orderId": order["orderId"],
        "status": status,
        "occurredAt": datetime.now(timezone.utc).isoformat(),
    }
    if reason:
        result["reason"] = reason
    try:
        # With confirms on, this returns once the broker has the result, and raises if it did
        # not take it (NackError) or could not route it (UnroutableError).
        channel.basic_publish(
            EXCHANGE,
            f"recharge.result.{PRODUCT}",
            json.dumps(result),
            pika.BasicProperties(
                message_id=result["messageId"],
                content_type="application/json",
                delivery_mode=pika.DeliveryMode.Persistent,
            ),
            mandatory=True,
        )
    except (pika.exceptions.NackError, pika.exceptions.UnroutableError) as error:
        raise PublishFailed(f"result for {order['orderId']} not taken: {error!r}") from error


def on_order(game):
    def handle(channel, method, properties, body):
        # Only Kid publishes on its exchange with your order key (no game's user may): an order
        # that reached this queue another way (the default exchange, another key) is not Kid's.
        if method.exchange != EXCHANGE or method.routing_key != f"recharge.order.{PRODUCT}":
            log.error("an order not from Kid (exchange %r, key %r): dead-lettered", method.exchange, method.routing_key)
            channel.basic_reject(method.delivery_tag, requeue=False)
            return
        order = readable(body)
        if order is None:
            # Not requeued forever: to game.<product>.dlq, through the queue's dead-letter exchange.
            channel.basic_reject(method.delivery_tag, requeue=False)
            return
        status, reason = game.credit_once(order)
        answer(channel, order, status, reason)  # PublishFailed: not acknowledged, comes back
        channel.basic_ack(method.delivery_tag)
        log.info("order %s answered %s", order["orderId"], status)

    return handle


def on_outcome(channel, method, properties, body):
    """What the portal did with each result: rejected ones say what to fix."""
    outcome = json.loads(body)
    level = logging.WARNING if outcome["outcome"] in ("rejected", "late", "conflicting") else logging.INFO
    log.log(level, "outcome %s for order %s: %s", outcome["outcome"], outcome["orderId"], outcome["reason"])
    channel.basic_ack(method.delivery_tag)


def declare(channel):
    channel.exchange_declare(DEAD_LETTER_EXCHANGE, exchange_type="fanout", durable=True)
    channel.queue_declare(DEAD_LETTERS, durable=True, arguments={"x-queue-type": "quorum"})
    channel.queue_bind(DEAD_LETTERS, DEAD_LETTER_EXCHANGE)
    channel.queue_declare(
        ORDERS,
        durable=True,
        arguments={"x-queue-type": "quorum", "x-dead-letter-exchange": DEAD_LETTER_EXCHANGE},
    )
    channel.queue_bind(ORDERS, EXCHANGE, routing_key=f"recharge.order.{PRODUCT}")
    channel.queue_declare(OUTCOMES, durable=True, arguments={"x-queue-type": "quorum"})
    channel.queue_bind(OUTCOMES, EXCHANGE, routing_key=f"recharge.outcome.{PRODUCT}")


def consume(game):
    connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
    try:
        channel = connection.channel()
        channel.confirm_delivery()
        declare(channel)
        channel.basic_qos(prefetch_count=16)
        channel.basic_consume(ORDERS, on_order(game))
        channel.basic_consume(OUTCOMES, on_outcome)
        log.info("consuming %s and %s", ORDERS, OUTCOMES)
        channel.start_consuming()
    finally:
        if connection.is_open:
            connection.close()


def main():
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    game = Game(GAME_DB)
    backoff = 1
    while True:
        started = time.monotonic()
        try:
            consume(game)
        except PublishFailed as error:
            # Closing the connection hands the unacknowledged orders back to the broker; they
            # come again once connected, and credit_once answers them without crediting twice.
            log.warning("%s; reconnecting in %s s, the order comes back", error, backoff)
        except AMQPError as error:
            log.warning("broker connection lost (%r); reconnecting in %s s", error, backoff)
        if time.monotonic() - started > 60:
            backoff = 1
        time.sleep(backoff)
        backoff = min(backoff * 2, 30)


if __name__ == "__main__":
    main()
