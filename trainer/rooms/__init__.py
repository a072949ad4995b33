"""Rooms and the kiosk: a class or a shop in front of one screen."""
