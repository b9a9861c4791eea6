from django.urls import path

from apps.review import views

app_name = "review"

urlpatterns = [
    path("review/", views.queue_list, name="queue_list"),
    path("review/next/", views.task_next, name="task_next"),
    path("review/tasks/<str:task_id>/", views.task_detail, name="task_detail"),
    path("review/tasks/<str:task_id>/approve/", views.task_approve, name="task_approve"),
    path("review/tasks/<str:task_id>/reject/", views.task_reject, name="task_reject"),
    path("review/tasks/<str:task_id>/escalate/", views.task_escalate, name="task_escalate"),
    path("review/tasks/<str:task_id>/release/", views.task_release, name="task_release"),
    path("review/tasks/<str:task_id>/fields/<str:name>/confirm/", views.field_confirm, name="field_confirm"),
    path("review/tasks/<str:task_id>/fields/<str:name>/correct/", views.field_correct, name="field_correct"),
    path("review/tasks/<str:task_id>/fields/<str:name>/crop.png", views.field_crop, name="field_crop"),
    path("review/queues/", views.queue_manage, name="queue_manage"),
    path("review/queues/new/", views.queue_create, name="queue_create"),
    path("review/queues/<str:queue_id>/edit/", views.queue_edit, name="queue_edit"),
    path("dashboard/", views.dashboard, name="dashboard"),
]
