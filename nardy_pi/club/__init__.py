"""Club scale (../shared/spec/club.md): each board publishes its snapshot to an MQTT broker
and one tournament page subscribes and shows every table live."""
