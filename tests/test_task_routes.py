"""People's actions have a queue of their own (issue 15): ``games.tasks.apply_action`` goes to
the default queue's ``-actions`` queue at ``TRIX_ACTION_TASK_PRIORITY`` (ahead of the tables'
wake-ups), and a worker started without ``-Q`` consumes that queue with the default one."""

from __future__ import annotations

from django.conf import settings

from games import tasks
from tests.worker import sending_to_queue
from trix_site.celery import action_queue, app


def _route(task):
    return app.amqp.router.route({}, task.name, ("x",), {}, task)


def test_an_action_goes_to_the_actions_queue_ahead_of_the_wake_ups():
    route = _route(tasks.apply_action)
    default = app.conf.task_default_queue
    assert route["queue"].name == action_queue(default) == default + "-actions"
    assert route["queue"].routing_key == route["queue"].name  # not the default queue's key
    assert route["priority"] == settings.TRIX_ACTION_TASK_PRIORITY
    assert settings.TRIX_ACTION_TASK_PRIORITY < settings.CELERY_TASK_DEFAULT_PRIORITY
    wake = _route(tasks.wake)
    assert wake["queue"].name == default and "priority" not in wake


def test_the_actions_queue_follows_the_default_queue_of_the_moment():
    with sending_to_queue("trix-test-routes"):
        assert _route(tasks.apply_action)["queue"].name == "trix-test-routes-actions"
        assert _route(tasks.wake)["queue"].name == "trix-test-routes"


def test_a_worker_without_q_consumes_the_actions_then_the_default_queue():
    names = [q.name for q in settings.CELERY_TASK_QUEUES]
    assert names == [
        action_queue(settings.CELERY_TASK_DEFAULT_QUEUE),
        settings.CELERY_TASK_DEFAULT_QUEUE,
    ]
