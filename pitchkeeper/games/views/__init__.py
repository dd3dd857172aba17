"""The views of the games domain, one module per screen or group of actions."""
